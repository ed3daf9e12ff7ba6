/** Workflows the worker registers (the bundle entry point). */
export { ralphLoop } from './ralph-loop';
export { ralphProject } from './ralph-project';
