/** `ralph pause <id> [--reason] [--by]`: stops the loop before its next iteration. */
import type { Command } from 'commander';
import { registerSignalCommand } from '../signal-helpers';

/** Registers `ralph pause` on the program. */
export function pauseCommand(program: Command): Command {
  return registerSignalCommand(program, 'pause');
}
