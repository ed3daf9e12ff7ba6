/** Automatic agent routing and handoffs: the pure rules (classifier, switch, handoffs, secrets, breaker, log). */
export * from './vocabulary';
export * from './classifier';
export * from './handoff';
export * from './secrets';
export * from './context';
export * from './breaker';
export * from './log';
export * from './signal';
export * from './profile';
export * from './model';
export * from './tracker';
export * from './model-v3';
export * from './model-v4';
export * from './model-v5';
export * from './model-v6';
export * from './model-v8';
export * from './sense';
