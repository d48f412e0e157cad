/** The table of mcpgen's commands, in the order `mcpgen --help` lists them. Add a command here. */
import type { Command } from "./command.ts";
import { explainCommand } from "./explain.ts";
import { generateCommand } from "./generate.ts";
import { initCommand } from "./init.ts";
import { validateCommand } from "./validate.ts";

export const COMMANDS: readonly Command[] = [initCommand, validateCommand, generateCommand, explainCommand];
