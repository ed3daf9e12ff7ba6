/** `ralph resume <id> [--reason] [--by]`: continues a paused loop. */
import type { Command } from 'commander';
import { registerSignalCommand } from '../signal-helpers';

/** Registers `ralph resume` on the program. */
export function resumeCommand(program: Command): Command {
  return registerSignalCommand(program, 'resume');
}
