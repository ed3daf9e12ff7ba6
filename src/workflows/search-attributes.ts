/** Typed search-attribute keys of the loop, built from the names in core/constants. */
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { SearchAttributes } from '../core/constants';

/** Keys the loop upserts as it moves. */
export const SA = {
  status: defineSearchAttributeKey(SearchAttributes.RalphStatus.name, SearchAttributeType.KEYWORD),
  iteration: defineSearchAttributeKey(SearchAttributes.RalphIteration.name, SearchAttributeType.INT),
  awaitingHuman: defineSearchAttributeKey(SearchAttributes.RalphAwaitingHuman.name, SearchAttributeType.BOOL),
  agent: defineSearchAttributeKey(SearchAttributes.RalphAgent.name, SearchAttributeType.KEYWORD),
  quality: defineSearchAttributeKey(SearchAttributes.RalphQuality.name, SearchAttributeType.DOUBLE),
  costUsd: defineSearchAttributeKey(SearchAttributes.RalphCostUsd.name, SearchAttributeType.DOUBLE),
  sandbox: defineSearchAttributeKey(SearchAttributes.RalphSandbox.name, SearchAttributeType.KEYWORD),
} as const;

/** Every key, for the dev server's `searchAttributes` option and the worker's registration check. */
export const ALL_SEARCH_ATTRIBUTE_KEYS = Object.values(SA);
