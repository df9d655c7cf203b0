import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import type { SeatingLayout } from './seating-layout.rules';
import { SeatingPlan } from './seating-plan.entity';

/** The statements of seating plans (`seating_plan`; compat §3.5) beyond plain repository calls. Stateless. */
@Injectable()
export class SeatingPlanQueries {
  /**
   * One page of the organizer's plans, ordering `name` (default), `id`; one statement, no lock.
   * @throws ValidationFailed for a malformed `ordering`
   */
  plansPage<T>(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: SeatingPlan[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(SeatingPlan)
      .createQueryBuilder('p')
      .where('p.organizer_id = :organizer', { organizer: organizerId });
    applyOrdering(qb, filters, { name: 'p.name', id: 'p.id' }, ['name', 'id']);
    return paginateRows(qb, page, present);
  }

  /** The layout of the plan `planId` (none when it is gone); no lock. */
  layout(em: EntityManager, planId: number): Promise<{ layout: SeatingLayout }[]> {
    return em.query('SELECT layout FROM seating_plan WHERE id = $1', [planId]);
  }
}
