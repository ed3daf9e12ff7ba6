/** `ralph answer <id> "text" [--file path] [--by] [--gate]`: answers the agent's question at the pending question gate. */
import fs from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { runCommand } from '../run-command';
import { confirmSignal, defaultBy } from '../signal-helpers';
import { UsageError } from '../errors';

const AnswerOptions = z.object({
  by: z.string().min(1).optional(),
  gate: z.string().min(1).optional(),
  file: z.string().min(1).optional(),
});

/** Registers `ralph answer` on the program. */
export function answerCommand(program: Command): Command {
  return program
    .command('answer <loopId> [text...]')
    .description(
      "answer the agent's question at the pending question gate: the loop goes on with your answer in the next prompt",
    )
    .option('--file <path>', 'read the answer from a file instead of the command line')
    .option('--by <name>', 'who answers (default: $USER); the prompt shows "Answer from <name>"')
    .option('--gate <gateId>', 'answer only this gate: refused if another gate is pending')
    .action(
      runCommand(AnswerOptions, async (o, [loopId, ...words], ctx) => {
        if (o.file && words.length) throw new UsageError('give the answer either as text or with --file, not both');
        let text = words.join(' ');
        if (o.file) {
          try {
            text = fs.readFileSync(o.file, 'utf8');
          } catch (e) {
            throw new UsageError(`--file ${o.file}: can't read it (${(e as NodeJS.ErrnoException).code ?? e})`);
          }
        }
        if (!text.trim())
          throw new UsageError(`no answer given: ralph answer ${loopId} "your answer" (or --file <path>)`);
        await confirmSignal(ctx, loopId, 'answer', { by: o.by ?? defaultBy(), text: text.trim(), gateId: o.gate });
      }),
    );
}
