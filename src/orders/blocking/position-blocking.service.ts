import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { NotFound } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import { OrderPresentation } from '../presentation/order-presentation.service';
import type { OrderPositionJson } from '../presentation/order.presenter';
import { logOrder } from '../writing/order-log';
import type { PrintLogJson } from '../presentation/order-parts.presenter';
import { PrintLogQueries } from '../presentation/print-log.queries';
import type { PrintLogDto } from './print-log.dto';
import { PositionBlockingQueries } from './position-blocking.queries';
import {
  BlockedSecretJson,
  RevokedSecretJson,
  toBlockedSecretJson,
  toRevokedSecretJson,
} from './secret-lists.presenter';

/** The position's blocks after adding `name` (kept once). */
export function withBlock(blocked: readonly string[] | null, name: string): string[] {
  const current = blocked ?? [];
  return current.includes(name) ? [...current] : [...current, name];
}

/** The position's blocks after removing `name`: null when none is left. */
export function withoutBlock(blocked: readonly string[] | null, name: string): string[] | null {
  const left = (blocked ?? []).filter((b) => b !== name);
  return left.length > 0 ? left : null;
}

/**
 * Ticket blocking (pretix "Order position endpoints" `add_block`, `remove_block`) and the secret lists scanners
 * download (`E/blockedsecrets/`, `E/revokedsecrets/`). A change runs in one transaction that locks the order row
 * and the position, sets the position's `blocked` (a list of names, or null), keeps the secret's row in
 * `blocked_secret` (`blocked` true or false, `updated` now), moves the order's `last_modified` and logs
 * `pretix.event.order.changed.add_block` / `pretix.event.order.changed.remove_block` (data: `position`,
 * `positionid`, `block_name`).
 */
@Injectable()
export class PositionBlocking {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly audit: AuditLogService,
    private readonly presentation: OrderPresentation,
    private readonly queries: PositionBlockingQueries,
    private readonly printLogs: PrintLogQueries,
  ) {}

  /**
   * Records a print of the event's not-canceled position `id` (pretix `printlog`) and logs `pretix.event.order.print`
   * (data: `position`, `positionid` and the body's fields), in one transaction that locks the order row. A device
   * records its number (`device_id`, pretix `PrintLog.device`).
   * @returns the stored print log (201)
   * @throws NotFound for an unknown or canceled position, or one of another event
   */
  async printLog(event: Event, principal: Principal, id: number, body: PrintLogDto): Promise<PrintLogJson> {
    return this.em.transaction(async (em) => {
      const target = await this.queries.lockPosition(em, event.id, id);
      if (!target) throw new NotFound();
      const log = {
        successful: body.successful ?? true,
        datetime: new Date(body.datetime),
        source: body.source,
        type: body.type,
        info: body.info ?? {},
      };
      const stored = await this.printLogs.insert(em, {
        positionId: target.id,
        ...log,
        deviceId: principal.identity.device?.deviceId ?? null,
      });
      await logOrder(this.audit, em, { event, principal }, target.orderId, 'pretix.event.order.print', {
        position: target.id,
        positionid: target.positionid,
        successful: log.successful,
        datetime: stored.datetime,
        source: log.source,
        type: log.type,
        info: log.info,
      });
      return stored;
    });
  }

  /**
   * Adds the block `name` to the event's position `id` (a second time changes nothing but is logged).
   * @returns the position as `E/orderpositions/{id}/` shows it
   * @throws NotFound for an unknown or canceled position, or one of another event
   */
  addBlock(event: Event, principal: Principal, id: number, name: string): Promise<OrderPositionJson> {
    return this.change(event, principal, id, 'pretix.event.order.changed.add_block', name, (b) =>
      withBlock(b, name),
    );
  }

  /**
   * Removes the block `name` from the event's position `id` (`blocked` becomes null when no block is left; the
   * secret stays listed in `E/blockedsecrets/` with `blocked: false`).
   * @returns the position as `E/orderpositions/{id}/` shows it
   * @throws NotFound for an unknown or canceled position, or one of another event
   */
  removeBlock(event: Event, principal: Principal, id: number, name: string): Promise<OrderPositionJson> {
    return this.change(event, principal, id, 'pretix.event.order.changed.remove_block', name, (b) =>
      withoutBlock(b, name),
    );
  }

  /** One page of `E/blockedsecrets/` (see {@link PositionBlockingQueries.blockedPage}); one statement. */
  blockedSecrets(
    event: Event,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<BlockedSecretJson>> {
    return this.queries.blockedPage(this.em, event.id, filters, page, (rows) =>
      rows.map(toBlockedSecretJson),
    );
  }

  /** One page of `E/revokedsecrets/` (see {@link PositionBlockingQueries.revokedPage}); one statement. */
  revokedSecrets(
    event: Event,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<RevokedSecretJson>> {
    return this.queries.revokedPage(this.em, event.id, filters, page, (rows) =>
      rows.map(toRevokedSecretJson),
    );
  }

  private async change(
    event: Event,
    principal: Principal,
    id: number,
    action: string,
    name: string,
    next: (blocked: string[] | null) => string[] | null,
  ): Promise<OrderPositionJson> {
    const { orderId, orderCode } = await this.em.transaction(async (em) => {
      const target = await this.queries.lockPosition(em, event.id, id);
      if (!target) throw new NotFound();
      await this.queries.setBlocked(em, event.id, target, next(target.blocked), new Date());
      await logOrder(this.audit, em, { event, principal }, target.orderId, action, {
        position: target.id,
        positionid: target.positionid,
        block_name: name,
      });
      return target;
    });
    const position = await this.queries.position(this.em, id);
    if (!position) throw new NotFound();
    const [json] = await this.presentation.positions(
      this.em,
      [position],
      new Map([[orderId, orderCode]]),
      await this.presentation.ticketFacts(this.em, [position.id]),
    );
    return json;
  }
}
