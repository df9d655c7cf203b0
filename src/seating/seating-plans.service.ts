import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { ResourceInUse, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findOrNotFound } from '../common/persistence/find';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import type { CreateSeatingPlanDto } from './seating-plan.dto';
import { SeatingPlan } from './seating-plan.entity';
import { SeatingPlanQueries } from './seating-plan.queries';
import { SeatingPlanJson, toSeatingPlanJson } from './seating-plan.presenter';
import { layoutFieldErrors, SeatingLayout } from './seating-layout.rules';

/** Audit content type of seating plans (pretix model name). */
const CONTENT_TYPE = 'seatingplan';
export const PLAN_CHANGE_IN_USE = 'This plan can not be changed while it is in use for an event.';
export const PLAN_DELETE_IN_USE = 'This plan can not be deleted while it is in use for an event.';

/**
 * Seating plans of one organizer (compat §3.5): list (by name), detail, create, update, delete. The layout is
 * checked against the seating-plan schema ({@link layoutFieldErrors}: 400 naming the place). A plan in use by an
 * event (or a date of a series) cannot be changed or deleted (403).
 */
@Injectable()
export class SeatingPlansService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly tenancy: TenancyQueries,
    private readonly queries: SeatingPlanQueries,
  ) {}

  /** One page of the organizer's plans; ordering `name` (default), `id`. One SQL statement. */
  list(organizer: Organizer, filters: QueryFilters, page: PageRequest): Promise<Paginated<SeatingPlanJson>> {
    return this.queries.plansPage(this.db, organizer.id, filters, page, (rows) =>
      rows.map(toSeatingPlanJson),
    );
  }

  /** @throws NotFound for an id that is not a plan of this organizer */
  async get(organizer: Organizer, id: number): Promise<SeatingPlanJson> {
    return toSeatingPlanJson(await this.load(this.db, organizer, id, false));
  }

  /**
   * Creates a plan; logs `pretix.seatingplan.added`.
   * @throws ValidationFailed on `layout` for a layout that breaks the schema
   */
  create(organizer: Organizer, principal: Principal, body: CreateSeatingPlanDto): Promise<SeatingPlanJson> {
    checkLayout(body.layout);
    return this.db.transaction(async (em) => {
      const plan = em.create(SeatingPlan, {
        organizerId: organizer.id,
        name: body.name,
        layout: body.layout as SeatingLayout,
      });
      await em.save(plan);
      await this.log(em, principal, organizer, plan.id, 'pretix.seatingplan.added', { name: plan.name });
      return toSeatingPlanJson(plan);
    });
  }

  /**
   * PUT (both fields) or PATCH (sent fields); logs `pretix.seatingplan.changed`.
   * @throws NotFound for an id that is not a plan of this organizer
   * @throws ValidationFailed for an invalid layout
   * @throws ResourceInUse (403) while an event or a date uses the plan
   */
  update(
    organizer: Organizer,
    id: number,
    principal: Principal,
    body: Partial<CreateSeatingPlanDto>,
  ): Promise<SeatingPlanJson> {
    if (body.layout !== undefined) checkLayout(body.layout);
    return this.db.transaction(async (em) => {
      const plan = await this.load(em, organizer, id, true);
      if (await this.tenancy.seatingPlanInUse(em, plan.id)) throw new ResourceInUse(PLAN_CHANGE_IN_USE);
      if (body.name !== undefined) plan.name = body.name;
      if (body.layout !== undefined) plan.layout = body.layout as SeatingLayout;
      await em.save(plan);
      await this.log(em, principal, organizer, plan.id, 'pretix.seatingplan.changed', { name: plan.name });
      return toSeatingPlanJson(plan);
    });
  }

  /**
   * Deletes a plan; logs `pretix.seatingplan.deleted`.
   * @throws NotFound for an id that is not a plan of this organizer
   * @throws ResourceInUse (403) while an event or a date uses the plan
   */
  async delete(organizer: Organizer, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const plan = await this.load(em, organizer, id, true);
      if (await this.tenancy.seatingPlanInUse(em, plan.id)) throw new ResourceInUse(PLAN_DELETE_IN_USE);
      await this.log(em, principal, organizer, plan.id, 'pretix.seatingplan.deleted', { name: plan.name });
      await em.delete(SeatingPlan, { id: plan.id, organizerId: organizer.id });
    });
  }

  /**
   * The plan `id` of the organizer, share-locked in `em`'s transaction (an event taking the plan keeps it from
   * changing meanwhile), or null when there is none.
   */
  findForAssignment(em: EntityManager, organizerId: number, id: number): Promise<SeatingPlan | null> {
    return em.findOne(SeatingPlan, { where: { id, organizerId }, lock: { mode: 'pessimistic_read' } });
  }

  private load(em: EntityManager, organizer: Organizer, id: number, lock: boolean): Promise<SeatingPlan> {
    return findOrNotFound(em, SeatingPlan, { id, organizerId: organizer.id }, lock);
  }

  private log(
    em: EntityManager,
    principal: Principal,
    organizer: Organizer,
    id: number,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: organizer.id,
      eventId: null,
      contentType: CONTENT_TYPE,
      objectId: id,
      action,
      data,
    });
  }
}

/** @throws ValidationFailed `{"layout": ["zones[0].rows[1].seats[2].seat_guid: ..."]}` */
function checkLayout(layout: unknown): void {
  const errors = layoutFieldErrors(layout);
  if (errors) throw new ValidationFailed(errors);
}
