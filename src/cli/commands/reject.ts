/** `ralph reject <id> [--guidance] [--extra-iterations n] [--reason] [--by] [--gate]`: refuses at the pending gate; the loop goes on with the guidance. */
import type { Command } from 'commander';
import { registerSignalCommand } from '../signal-helpers';

/** Registers `ralph reject` on the program. */
export function rejectCommand(program: Command): Command {
  return registerSignalCommand(program, 'reject');
}
