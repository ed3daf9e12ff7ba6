/** `ralph abort <id> [--reason] [--by] [--gate]`: ends the loop, at a gate or while the agent runs. */
import type { Command } from 'commander';
import { registerSignalCommand } from '../signal-helpers';

/** Registers `ralph abort` on the program. */
export function abortCommand(program: Command): Command {
  return registerSignalCommand(program, 'abort');
}
