/** Problems both PRD formats share: repeated ids, unknown dependencies, self-dependencies and cycles. */
import type { PrdProblem } from '../errors';
import type { PrdTask } from './types';

/** Every task whose id an earlier task already has. */
export function duplicateIdProblems(
  tasks: PrdTask[],
  problem: (t: PrdTask, first: PrdTask) => PrdProblem,
): PrdProblem[] {
  const first = new Map<string, PrdTask>();
  const out: PrdProblem[] = [];
  for (const t of tasks) {
    const f = first.get(t.id);
    if (f) out.push(problem(t, f));
    else first.set(t.id, t);
  }
  return out;
}

/** Unknown ids, self-dependencies and cycles; `where(task, dep)` locates one entry (dep undefined: the whole list). */
export function dependencyProblems(
  tasks: PrdTask[],
  where: (t: PrdTask, dep?: string) => Omit<PrdProblem, 'message'>,
): PrdProblem[] {
  const byId = new Map<string, PrdTask>();
  for (const t of tasks) if (!byId.has(t.id)) byId.set(t.id, t);
  const out: PrdProblem[] = [];
  for (const t of tasks)
    for (const d of t.dependsOn) {
      if (d === t.id) out.push({ ...where(t, d), message: `"${t.id}" depends on itself` });
      else if (!byId.has(d)) out.push({ ...where(t, d), message: `depends on unknown task "${d}"` });
    }

  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of byId.get(id)!.dependsOn) {
      if (d === id || !byId.has(d)) continue;
      const s = state.get(d);
      if (s === 'visiting') {
        const cycle = stack.slice(stack.indexOf(d));
        const key = [...cycle].sort().join('\n');
        if (!seen.has(key)) {
          seen.add(key);
          out.push({ ...where(byId.get(d)!), message: `dependency cycle: ${[...cycle, d].join(' → ')}` });
        }
      } else if (!s) visit(d);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const t of byId.values()) if (!state.has(t.id)) visit(t.id);
  return out;
}
