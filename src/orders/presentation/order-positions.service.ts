import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import { OrderPosition } from '../entities/order-position.entity';
import { OrderPresentation } from './order-presentation.service';
import { OrderPositionJson, toOrderPositionJson } from './order.presenter';
import {
  CanceledFilter,
  OrderListQueries,
  POSITION_ID_FILTERS,
  POSITION_TEXT_FILTERS,
  PositionListWhere,
} from './order-list.queries';

/**
 * Order positions of an event, read-only (`E/orderpositions/`, compat §4.4 "Position fields"). Canceled
 * positions are hidden unless `include_canceled_positions=true` (or `canceled` is filtered on explicitly), as in
 * pretix. A page costs a fixed number of SQL statements: rows, count, order codes, answers, check-ins.
 */
@Injectable()
export class OrderPositionsService {
  constructor(
    @InjectRepository(OrderPosition) private readonly positions: Repository<OrderPosition>,
    private readonly presentation: OrderPresentation,
    private readonly queries: OrderListQueries,
  ) {}

  /**
   * One page of positions. Filters: `order` (order code, case-insensitive), `order__status`, `item`,
   * `variation`, `addon_to`, `voucher` (integers), `attendee_email` (case-insensitive exact), `secret`,
   * `pseudonymization_id` (exact), `canceled` (boolean), `include_canceled_positions`. Ordering `id` (default),
   * `positionid`.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<OrderPositionJson>> {
    const where: PositionListWhere = {
      canceled: canceledFilter(filters),
      order: filters.str('order'),
      orderStatus: filters.str('order__status')?.toLowerCase(),
    };
    for (const [param] of POSITION_ID_FILTERS) where[param] = filters.int(param);
    where.attendeeEmail = filters.str('attendee_email');
    for (const [param] of POSITION_TEXT_FILTERS) where[param] = filters.str(param);
    const qb = this.queries.positionsOfEvent(this.positions.manager, event.id, where);
    applyOrdering(qb, filters, { id: 'p.id', positionid: 'p.positionid' }, ['id']);
    return paginateInOne(qb, page, this.presentation.positionRelated(), toOrderPositionJson);
  }

  /**
   * One position by id within the event.
   * @throws NotFound for an unknown id, one of another event, or a canceled one without `include_canceled_positions`
   */
  async get(event: Event, id: number, filters: QueryFilters): Promise<OrderPositionJson> {
    const qb = this.queries.positionById(this.positions.manager, event.id, id, canceledFilter(filters));
    return findOneInOne(qb, this.presentation.positionRelated(), toOrderPositionJson);
  }
}

/** `canceled=<bool>` filters on it; otherwise canceled positions only with `include_canceled_positions=true`. */
function canceledFilter(filters: QueryFilters): CanceledFilter {
  const canceled = filters.bool('canceled');
  if (canceled !== undefined) return { canceled };
  return { include: filters.raw('include_canceled_positions') === 'true' };
}
