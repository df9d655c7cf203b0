import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import { isoUtc } from '../../common/values/datetime';
import { AutoCheckinInputs } from '../../orders/checkin-seam/auto-checkin-inputs.queries';
import { AfterCommit, OrderHooks, OrderTransitionContext } from '../../orders/writing/order-hooks';
import { CHECKIN_EVENTS, type CheckinEvents } from '../checkin-events.port';
import { AutoCheckinQueries } from './auto-checkin.queries';
import { AutoCheckinMode, applicableRules, autoCheckinPairs, modesOf } from './auto-checkin.rules';

/**
 * What the automatic check-in rules do (pretix 2025+ plugin `autocheckin`): registered with the orders context's
 * {@link OrderHooks} at module init (orders never imports check-in), it runs inside the transaction that places or
 * pays an order, so the check-ins commit or roll back with the order change (nothing is lost if the process dies
 * after the commit). Placement runs `placed` rules (and `paid` rules when the order is placed paid), payment runs
 * `paid` rules; every matching position is checked in on the rule's list(s): a successful `entry` with
 * `auto_checked_in` true, stored once per position and list however often it fires, logged
 * `pretix.event.checkin` on the order (so webhooks of that action hear it; pretix writes no log entry here, see
 * README). One statement when the event has no rule of the mode (the common case), at most five otherwise. The
 * check-ins are published to the lists' live streams after the commit (the hook's after-commit work).
 */
@Injectable()
export class AutoCheckinService implements OnModuleInit {
  constructor(
    private readonly hooks: OrderHooks,
    private readonly inputs: AutoCheckinInputs,
    private readonly queries: AutoCheckinQueries,
    private readonly audit: AuditLogService,
    @Inject(CHECKIN_EVENTS) private readonly events: CheckinEvents,
  ) {}

  onModuleInit(): void {
    this.hooks.onTransition((ctx) => this.onOrderTransition(ctx));
  }

  /**
   * The orders' hook: the rules of the transition's modes (see the class).
   * @returns the after-commit work that publishes the check-ins to the lists' live streams, when any were stored
   */
  async onOrderTransition(ctx: OrderTransitionContext): Promise<AfterCommit | void> {
    const modes = modesOf(ctx.transition, ctx.order.status);
    if (modes.length === 0) return;
    const rules = await this.queries.rulesFor(ctx.em, ctx.event.id, modes);
    if (rules.length === 0) return;
    const { positions, paymentMethods } = await this.inputs.of(ctx.em, ctx.order.id);
    const methods = new Set(paymentMethods);
    const applying = modes.flatMap((mode: AutoCheckinMode) =>
      applicableRules(rules, mode, ctx.order.salesChannel, mode === 'placed' ? new Set() : methods),
    );
    if (applying.length === 0 || positions.length === 0) return;
    const named = [...new Set(applying.flatMap((r) => (r.listId === null ? [] : [r.listId])))];
    const anyList = applying.some((r) => r.listId === null);
    const subevents = [...new Set(positions.flatMap((p) => (p.subeventId === null ? [] : [p.subeventId])))];
    const lists = await this.queries.lists(ctx.em, ctx.event.id, named, anyList, subevents);
    const pairs = autoCheckinPairs(
      applying,
      positions,
      new Map(lists.filter((l) => l.named).map((l) => [l.id, l])),
      lists.filter((l) => l.ofEvent),
    );
    if (pairs.length === 0) return;
    const ids = await this.store(ctx, pairs, positions);
    if (ids.length === 0) return;
    return () => Promise.resolve(this.events.committed({ kind: 'checkins', checkinIds: ids }));
  }

  /** Stores the check-ins and their log entries (two statements). @returns the ids of the check-ins stored */
  private async store(
    ctx: OrderTransitionContext,
    pairs: Parameters<AutoCheckinQueries['insertAutoCheckins']>[2],
    positions: { id: number; positionid: number }[],
  ): Promise<number[]> {
    const em: EntityManager = ctx.em;
    const stored = await this.queries.insertAutoCheckins(em, ctx.event.id, pairs, new Date());
    const positionids = new Map(positions.map((p) => [p.id, p.positionid]));
    await this.audit.recordMany(
      em,
      ctx.principal,
      stored.map((c) => ({
        organizerId: ctx.event.organizerId,
        eventId: ctx.event.id,
        contentType: 'order',
        objectId: ctx.order.id,
        action: 'pretix.event.checkin',
        data: {
          position: c.position_id,
          positionid: positionids.get(c.position_id) ?? null,
          first: c.first,
          forced: false,
          datetime: isoUtc(new Date(c.datetime)),
          type: 'entry',
          list: c.list_id,
          auto_checked_in: true,
          checkin: c.id,
        },
      })),
    );
    return stored.map((c) => c.id);
  }
}
