/**
 * Records a task's progress back into the PRD's own text: the one `passes` value in prd.json, the one box in Markdown;
 * every other byte stays as the human wrote it.
 */
import { StalePrdError, UnknownPrdTaskError } from '../errors';
import { memberOf, scanJson, type JsonNode } from './json-scan';
import { parseItemBody, parseItemLine } from './markdown';
import type { Prd, PrdTask } from './types';

/**
 * Records a task's progress in the PRD's text and returns the new text: in prd.json the story's `passes` value is
 * replaced (or `"passes": ...` added after its last key, in the file's own layout) and every other byte is kept; in
 * Markdown only that item's box flips between `[ ]` and `[x]`. Returns `text` itself when it already says so.
 * `prd` must have been parsed from `text` ({@link StalePrdError} otherwise).
 */
export function markTaskDone(text: string, prd: Prd, taskId: string, done: boolean): string {
  const task = prd.tasks.find((t) => t.id === taskId);
  if (!task)
    throw new UnknownPrdTaskError(
      taskId,
      prd.tasks.map((t) => t.id),
    );
  return task.source.kind === 'json'
    ? markJson(text, task, task.source.index, done)
    : markMarkdown(text, task, task.source.line, done);
}

function markJson(text: string, task: PrdTask, index: number, done: boolean): string {
  let root: JsonNode;
  try {
    root = scanJson(text);
  } catch {
    throw new StalePrdError(task.id, 'it is no longer valid JSON');
  }
  const stories = memberOf(root, 'userStories')?.value;
  const story = stories?.type === 'array' ? stories.items[index] : undefined;
  const idNode = memberOf(story, 'id')?.value;
  if (story?.type !== 'object' || !idNode || String(JSON.parse(text.slice(idNode.start, idNode.end))) !== task.id)
    throw new StalePrdError(task.id, `userStories[${index}] is no longer "${task.id}"`);

  const want = String(done);
  const passes = memberOf(story, 'passes')?.value;
  if (passes) {
    if (text.slice(passes.start, passes.end) === want) return text;
    return text.slice(0, passes.start) + want + text.slice(passes.end);
  }
  // No `passes` yet: add it after the last key, laid out like that key (its indentation and its `": "`).
  const last = story.members[story.members.length - 1];
  const prevEnd = story.members.length > 1 ? text.lastIndexOf(',', last.keyStart) + 1 : story.start + 1;
  const lead = text.slice(prevEnd, last.keyStart);
  const colon = text.slice(last.keyEnd, last.value.start);
  return `${text.slice(0, last.value.end)},${lead}"passes"${colon}${want}${text.slice(last.value.end)}`;
}

function markMarkdown(text: string, task: PrdTask, lineNo: number, done: boolean): string {
  let start = 0;
  for (let n = 1; n < lineNo; n++) {
    start = text.indexOf('\n', start) + 1;
    if (start === 0) throw new StalePrdError(task.id, `the file has fewer than ${lineNo} lines`);
  }
  if (lineNo === 1 && text.startsWith('\uFEFF')) start = 1;
  const nl = text.indexOf('\n', start);
  const line = text.slice(start, nl < 0 ? text.length : nl).replace(/\r$/, '');
  const item = parseItemLine(line);
  if (!item || !' xX'.includes(item.mark) || item.mark === '' || parseItemBody(item.body).title !== task.title)
    throw new StalePrdError(task.id, `line ${lineNo} is no longer the checklist item "${task.title}"`);
  if ((item.mark !== ' ') === done) return text;
  const at = start + item.boxColumn;
  return text.slice(0, at) + (done ? 'x' : ' ') + text.slice(at + 1);
}
