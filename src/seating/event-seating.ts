import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ItemQueries } from '../catalogue/items/item.queries';
import { FieldErrors, invalidPk, ValidationFailed } from '../common/errors';
import type { EventSeating } from '../organizers/event-seating.port';
import { SeatingPlansService } from './seating-plans.service';
import { plannedSeats } from './seating-layout.rules';
import { SEAT_HOLDERS, SeatHolders } from './seat-holders.port';
import { SeatScope } from './seat-scope';
import { SeatQueries } from './seat.queries';
import { SeatingPlanQueries } from './seating-plan.queries';

/**
 * The seating context's answer to the tenancy roots' EVENT_SEATING port (compat §3.17 `seating_plan`, §4.2):
 * checks a plan and category mapping for an event, and generates the event's seats from the plan in a fixed number
 * of statements (removed seats deleted, kept seats updated in place with their `blocked` flag, new ones inserted),
 * for an event without dates or for one date of a series.
 */
@Injectable()
export class EventSeatingService implements EventSeating {
  constructor(
    private readonly plans: SeatingPlansService,
    @Inject(SEAT_HOLDERS) private readonly holders: SeatHolders,
    private readonly queries: SeatQueries,
    private readonly planQueries: SeatingPlanQueries,
  ) {}

  async check(
    em: EntityManager,
    organizerId: number,
    eventId: number | null,
    planId: number | null,
    mapping: Record<string, number | null>,
    hasSubevents: boolean,
  ): Promise<FieldErrors | null> {
    const errors: Record<string, string[]> = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    if (planId !== null) {
      if (hasSubevents) add('seating_plan', 'Event series should not directly be assigned a seating plan.');
      else if (!(await this.plans.findForAssignment(em, organizerId, planId)))
        add('seating_plan', invalidPk(planId));
    }
    const ids = Object.values(mapping).filter((v): v is number => v !== null);
    if (Object.values(mapping).some((v) => v !== null && (typeof v !== 'number' || !Number.isInteger(v)))) {
      add('seat_category_mapping', 'Item IDs must be integers or null.');
    } else if (ids.length > 0 && eventId !== null) {
      // On creation the tenancy roots refuse any mapping (the event has no items yet).
      const known = await new ItemQueries().eventItemIds(em, eventId, ids);
      for (const id of ids) if (!known.has(id)) add('seat_category_mapping', `Item '${id}' does not exist.`);
    }
    return Object.keys(errors).length > 0 ? errors : null;
  }

  async apply(
    em: EntityManager,
    eventId: number,
    planId: number | null,
    mapping: Record<string, number | null>,
    subeventId: number | null = null,
  ): Promise<void> {
    const scope: SeatScope = { eventId, subeventId };
    const plan = planId === null ? [] : await this.planQueries.layout(em, planId);
    const seats = plan.length > 0 ? plannedSeats(plan[0].layout) : [];
    const rows = seats.map((s, rank) => ({
      zone_name: s.zoneName,
      row_name: s.rowName,
      row_label: s.rowLabel,
      seat_number: s.seatNumber,
      seat_label: s.seatLabel,
      seat_guid: s.seatGuid,
      product_id: mapping[s.category] ?? null,
      sorting_rank: rank,
    }));
    // Seats that would vanish, locked (a sale locks the seats it takes), then refused when sold or reserved.
    const leaving = await this.queries.lockLeaving(
      em,
      scope,
      rows.map((r) => r.seat_guid),
    );
    if (leaving.length > 0) {
      const holders = await this.holders.ofScope(em, scope, new Date());
      const sold = leaving.find((s) => holders.has(s.id));
      if (sold) {
        throw ValidationFailed.field(
          'seating_plan',
          `You can not change the plan since seat "${sold.seat_guid}" is not present in the new plan and is already sold.`,
        );
      }
      await this.queries.deleteSeats(
        em,
        leaving.map((s) => s.id),
      );
    }
    if (rows.length === 0) return;
    await this.queries.upsertPlanned(em, eventId, subeventId, rows);
  }
}
