// Summary statistics for repeated measurements. The median is the headline
// figure (robust to a noisy neighbour on a shared machine); the spread is the
// min–max range over the rounds so a reader can see how noisy the run was.

export type Summary = { median: number; min: number; max: number; rounds: number };

export function summarize(values: number[]): Summary {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, rounds: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), min: sorted[0], max: sorted[sorted.length - 1], rounds: values.length };
}

/** Quantile of an ascending array by linear interpolation between the closest ranks. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** Spread as a ± percentage of the median (half the min–max range), for a compact table cell. */
export function spreadPercent(summary: Summary): number {
  if (!(summary.median > 0)) return 0;
  return ((summary.max - summary.min) / 2 / summary.median) * 100;
}
