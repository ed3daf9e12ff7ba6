/**
 * `questions` in the loop input or ralph.config.yaml: how many times per loop the agent (or PDARE on its behalf) may
 * stop and ask a human. `{}` (or leaving it out) gives the default, 3; `{ "max": 0 }` turns asking off.
 */
import { z } from 'zod';
import { DEFAULT_MAX_QUESTIONS } from '../core/questions';

/** `questions` of the loop input or ralph.config.yaml. */
export const QuestionsConfig = z
  .object({
    /**
     * Questions per loop (a `<question>` block, a `STATUS: BLOCKED` status block, PDARE's clarification). Beyond it a
     * question block is read as ordinary text and the agent is told why; 0 turns asking off.
     */
    max: z
      .number({ error: 'must be a whole number of questions per loop, e.g. 3 (0 turns asking off)' })
      .int('must be a whole number of questions per loop, e.g. 3 (0 turns asking off)')
      .min(0, 'must be 0 or more (0 turns asking off)')
      .max(1000, 'must be at most 1000')
      .default(DEFAULT_MAX_QUESTIONS),
  })
  .strict();
/** Question settings, after defaults. */
export type QuestionsConfig = z.infer<typeof QuestionsConfig>;
