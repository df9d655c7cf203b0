import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import { OrderPosition } from '../entities/order-position.entity';
import { OrderPresentation } from './order-presentation.service';
import { OrderPositionJson, toOrderPositionJson } from './order.presenter';
import { OrderListQueries } from './order-list.queries';

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
    const qb = this.queries.positionsOfEvent(this.positions.manager, event.id);
    applyCanceled(qb, filters);
    const order = filters.str('order');
    if (order !== undefined) {
      qb.andWhere(
        'p.order_id IN (SELECT id FROM orders WHERE event_id = :event AND upper(code) = upper(:order))',
        {
          order,
        },
      );
    }
    const status = filters.str('order__status');
    if (status !== undefined) {
      qb.andWhere('p.order_id IN (SELECT id FROM orders WHERE event_id = :event AND status = :status)', {
        status: status.toLowerCase(),
      });
    }
    for (const [param, column] of [
      ['item', 'item_id'],
      ['variation', 'variation_id'],
      ['addon_to', 'addon_to_id'],
      ['voucher', 'voucher_id'],
    ] as const) {
      const value = filters.int(param);
      if (value !== undefined) qb.andWhere(`p.${column} = :${param}`, { [param]: value });
    }
    const email = filters.str('attendee_email');
    if (email !== undefined) qb.andWhere('lower(p.attendee_email) = lower(:email)', { email });
    for (const [param, column] of [
      ['secret', 'secret'],
      ['pseudonymization_id', 'pseudonymization_id'],
    ] as const) {
      const value = filters.str(param);
      if (value !== undefined) qb.andWhere(`p.${column} = :${param}`, { [param]: value });
    }
    applyOrdering(qb, filters, { id: 'p.id', positionid: 'p.positionid' }, ['id']);
    return paginateInOne(qb, page, this.presentation.positionRelated(), toOrderPositionJson);
  }

  /**
   * One position by id within the event.
   * @throws NotFound for an unknown id, one of another event, or a canceled one without `include_canceled_positions`
   */
  async get(event: Event, id: number, filters: QueryFilters): Promise<OrderPositionJson> {
    const qb = this.queries.positionById(this.positions.manager, event.id, id);
    applyCanceled(qb, filters);
    return findOneInOne(qb, this.presentation.positionRelated(), toOrderPositionJson);
  }
}

/** `canceled=<bool>` filters on it; otherwise canceled positions only with `include_canceled_positions=true`. */
function applyCanceled(qb: SelectQueryBuilder<OrderPosition>, filters: QueryFilters): void {
  const canceled = filters.bool('canceled');
  if (canceled !== undefined) qb.andWhere('p.canceled = :canceled', { canceled });
  else if (filters.raw('include_canceled_positions') !== 'true') qb.andWhere('NOT p.canceled');
}
