import type { SeatingPlan } from './seating-plan.entity';
import { ApiInt } from '../common/http/api-schemas';

/** Wire form of a seating plan (compat §3.5). */
export class SeatingPlanJson {
  @ApiInt()
  id!: number;
  name!: string;
  /** The layout as stored (pretix's seating-plan schema). */
  layout!: Record<string, unknown>;
}

/** Entity to wire object. */
export function toSeatingPlanJson(plan: SeatingPlan): SeatingPlanJson {
  return { id: plan.id, name: plan.name, layout: plan.layout };
}
