/**
 * What every mcpgen command is: its flags (which drive both the parser and the help text, so the help
 * can never miss a flag), a one-line summary for `mcpgen --help`, and the function that runs it.
 */
export type Flag = {
  type: "string" | "boolean";
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in the help, e.g. "<dir>". */
  value?: string;
  help: string;
};
export type Flags = Record<string, Flag>;
export type Parsed = { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };

export type Command = {
  name: string;
  /** The synopsis after `mcpgen <name>`, e.g. "<spec> --out <dir> [options]". */
  synopsis: string;
  summary: string;
  /** Paragraphs printed between the synopsis and the flags. */
  details?: string;
  flags: Flags;
  /** `args`: the command line as given, for commands that hand it on (generate --watch runs children). */
  run: (parsed: Parsed, args: string[]) => Promise<never> | never;
};

/** `--help` text: the synopsis, what the command does, then every flag with its description. */
export function helpText(command: Command): string {
  const rows = Object.entries({ ...command.flags, ...HELP_FLAG }).map(([name, flag]) => {
    const short = flag.short ? `-${flag.short}, ` : "";
    const value = flag.type === "string" ? ` ${flag.value ?? "<value>"}` : "";
    return [`  ${short}--${name}${value}`, flag.help + (flag.multiple ? " (repeatable)" : "")] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = rows.map(([left, right]) => `${left.padEnd(width)}${right}`);
  const details = command.details ? `\n${command.details}\n` : "";
  return `usage: mcpgen ${command.name} ${command.synopsis}\n\n${command.summary}\n${details}\noptions:\n${lines.join("\n")}\n`;
}

export const HELP_FLAG: Flags = { help: { type: "boolean", short: "h", help: "print this help and exit" } };
