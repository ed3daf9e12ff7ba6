/** `ralph approve <id> [--reason] [--by] [--gate]`: accepts the work at the pending human gate. */
import type { Command } from 'commander';
import { registerSignalCommand } from '../signal-helpers';

/** Registers `ralph approve` on the program. */
export function approveCommand(program: Command): Command {
  return registerSignalCommand(program, 'approve');
}
