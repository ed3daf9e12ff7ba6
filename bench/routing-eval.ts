/**
 * Scores the router on a labelled split: the routing decision against the label, the general tasks routed, the
 * reliability table of the confidences. Shared by bench:routing, fit:routing and the accuracy test.
 */
import {
  classify,
  reliabilityTable,
  ROUTING_DEFAULTS,
  type RoutingIndex,
  type RoutingRules,
} from '../src/core/routing';

/** A labelled split. */
export interface Labelled {
  description?: string;
  tasks: { label: string; text: string }[];
}

/** Figures of one split. */
export interface SplitFigures {
  tasks: number;
  /** Tasks that should route (labelled with a domain). */
  shouldRoute: number;
  /** Of those, routed to the labelled domain's specialist: the target (>= 85 %). */
  routedRight: number;
  accuracy: number;
  /** Of those, the labelled domain on top, thresholds aside. */
  domainAccuracy: number;
  /** Routing decision right on every task (right specialist, or the base agent for general). */
  decisionAccuracy: number;
  general: number;
  /** General tasks routed to a specialist (target 0). */
  routedGeneral: number;
  /** Reliability of the top domain's confidence: of the tasks given 0.7-0.8, how many had that domain right. */
  reliability: ReturnType<typeof reliabilityTable>;
  /** Every wrong decision: `label → predicted (top domain confidence, complexity, decided by): text`. */
  wrong: string[];
  /**
   * What "0 general routed" costs on this split: the lowest `minConfidence` (at least the one used) at which no general
   * task routes, and the share of the tasks that should route still routed right at it.
   */
  zeroGeneral: { minConfidence: number; routedRight: number; accuracy: number };
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

/** Classifies every task of `set` with `index` and scores the decisions. */
export function evaluateSplit(
  set: Labelled,
  index: RoutingIndex,
  rules?: Pick<RoutingRules, 'minConfidence' | 'minComplexity'>,
): SplitFigures {
  let routedRight = 0;
  let domainRight = 0;
  let decisionsRight = 0;
  let routedGeneral = 0;
  let general = 0;
  const points: { confidence: number; right: boolean }[] = [];
  const wrong: string[] = [];
  for (const t of set.tasks) {
    const c = classify(t.text, index, rules);
    const predicted = c.route ? c.domain : 'general';
    if (c.domain !== 'general') points.push({ confidence: c.confidence, right: c.domain === t.label });
    if (predicted === t.label) decisionsRight++;
    else
      wrong.push(
        `${t.label} → ${predicted} (${c.domain} ${c.confidence}, complexity ${c.complexity}, ${c.decidedBy}): ${t.text}`,
      );
    if (t.label === 'general') {
      general++;
      if (c.route) routedGeneral++;
    } else {
      if (c.route && c.domain === t.label) routedRight++;
      if (c.domain === t.label) domainRight++;
    }
  }
  const shouldRoute = set.tasks.length - general;
  return {
    tasks: set.tasks.length,
    shouldRoute,
    routedRight,
    accuracy: r4(routedRight / Math.max(1, shouldRoute)),
    domainAccuracy: r4(domainRight / Math.max(1, shouldRoute)),
    decisionAccuracy: r4(decisionsRight / Math.max(1, set.tasks.length)),
    general,
    routedGeneral,
    reliability: reliabilityTable(points),
    wrong,
    zeroGeneral: zeroGeneralBar(set, index, rules),
  };
}

/** {@link SplitFigures.zeroGeneral}: the highest confidence of a general task that routes, then the split at it. */
function zeroGeneralBar(
  set: Labelled,
  index: RoutingIndex,
  rules: Pick<RoutingRules, 'minConfidence' | 'minComplexity'> = ROUTING_DEFAULTS,
): SplitFigures['zeroGeneral'] {
  let bar = rules.minConfidence;
  for (const t of set.tasks) {
    if (t.label !== 'general') continue;
    const c = classify(t.text, index, { ...rules, minConfidence: 0 });
    if (c.route) bar = Math.max(bar, c.confidence);
  }
  let routedRight = 0;
  let shouldRoute = 0;
  for (const t of set.tasks) {
    if (t.label === 'general') continue;
    shouldRoute++;
    const c = classify(t.text, index, { ...rules, minConfidence: bar });
    if (c.route && c.domain === t.label) routedRight++;
  }
  return { minConfidence: bar, routedRight, accuracy: r4(routedRight / Math.max(1, shouldRoute)) };
}

/** The reliability table as text lines. */
export function reliabilityLines(r: SplitFigures['reliability']): string[] {
  const out = ['  CONFIDENCE  TASKS  RIGHT  ACCURACY  MEAN CONF'];
  for (const row of r.rows)
    out.push(
      `  ${row.from.toFixed(1)}-${row.to.toFixed(1)}     ${String(row.n).padStart(5)}  ${String(row.right).padStart(5)}  ` +
        `${(row.accuracy * 100).toFixed(1).padStart(7)}%  ${row.meanConfidence.toFixed(3).padStart(9)}`,
    );
  out.push(`  expected calibration error ${r.ece}`);
  return out;
}
