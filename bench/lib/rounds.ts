// Runs contenders in alternating order over several rounds, so drift in the
// machine's load (other processes, thermal state) hits everyone alike: round 0
// goes A B C, round 1 C B A, round 2 B C A, and so on.
export async function alternate<T extends { id: string }, R>(
  rounds: number,
  contenders: T[],
  measure: (contender: T, round: number) => Promise<R>,
): Promise<Map<string, R[]>> {
  const results = new Map<string, R[]>(contenders.map((contender) => [contender.id, []]));
  for (let round = 0; round < rounds; round++) {
    const rotated = contenders.map((_, index) => contenders[(index + round) % contenders.length]);
    const order = round % 2 === 1 ? rotated.reverse() : rotated;
    for (const contender of order) results.get(contender.id)?.push(await measure(contender, round));
  }
  return results;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Runs a preparation step and logs how long it took (the suite's own time budget is 20 minutes). */
export function timed<T>(label: string, step: () => T): T {
  const started = Date.now();
  const result = step();
  log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
