import type { SeatingPlan } from './seating-plan.entity';

/** Wire form of a seating plan (compat §3.5). */
export class SeatingPlanJson {
  id!: number;
  name!: string;
  /** The layout as stored (pretix's seating-plan schema). */
  layout!: Record<string, unknown>;
}

/** Entity to wire object. */
export function toSeatingPlanJson(plan: SeatingPlan): SeatingPlanJson {
  return { id: plan.id, name: plan.name, layout: plan.layout };
}
