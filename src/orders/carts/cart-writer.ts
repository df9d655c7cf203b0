import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import type { Event } from '../../organizers/event.entity';
import type { ValidatedAnswer } from '../answers/answers.rules';
import { CartPosition } from './cart-position.entity';
import type { Values } from '../writing/order-writer';
import { AnswerQueries } from '../answers/answer.queries';
import { CartPositionQueries } from './cart-position.queries';

/** Audit content type of cart positions. */
const CONTENT_TYPE = 'cartposition';

/** A cart position to insert, with its answers. */
export interface NewCartPosition {
  values: Values<CartPosition>;
  answers: readonly ValidatedAnswer[];
}

/** Who changes carts: the event of the URL and the credential. */
export interface CartActor {
  event: Pick<Event, 'id' | 'organizerId'>;
  principal: Principal;
}

/**
 * Every write of cart positions (and their answers): API creation and deletion with their log entries
 * (`pretix.event.cartposition.added|deleted`; pretix itself logs nothing for carts), the carts an order consumes,
 * and the carts of a deleted item. Expired positions are purged by the scheduler (`cart-expiry.ts`). Runs on the
 * caller's `em`.
 */
@Injectable()
export class CartWriter {
  constructor(
    private readonly audit: AuditLogService,
    private readonly queries: CartPositionQueries,
    private readonly answers: AnswerQueries,
  ) {}

  /**
   * Inserts positions and logs each (`pretix.event.cartposition.added`) in ONE statement (prepared for a single
   * position, the hot path), then their answers (two statements at most, none without answers). The quota locks
   * of a reservation are held meanwhile, so every round trip saved here shortens them.
   */
  async insert(
    em: EntityManager,
    actor: CartActor,
    drafts: readonly NewCartPosition[],
  ): Promise<CartPosition[]> {
    if (drafts.length === 0) return [];
    const positions = drafts.map((d) => em.create(CartPosition, d.values));
    const [sql, params] = this.queries.insertStatement(em, positions);
    const rows: { id: number }[] = await this.audit.recordEach(
      em,
      actor.principal,
      {
        organizerId: actor.event.organizerId,
        eventId: actor.event.id,
        contentType: CONTENT_TYPE,
        objectId: 'id',
        action: 'pretix.event.cartposition.added',
        data: `jsonb_build_object('cart_id', c.cart_id, 'item', c.item_id, 'variation', c.variation_id,
                                  'voucher', c.voucher_id)`,
      },
      sql,
      params,
      drafts.length === 1,
    );
    // One statement draws the ids of its rows from the sequence in the order of its VALUES.
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    positions.forEach((p, i) => (p.id = ids[i]));
    await this.answers.insert(
      em,
      drafts.flatMap((d, i) =>
        d.answers.map((answer) => ({ orderPositionId: null, cartPositionId: positions[i].id, answer })),
      ),
    );
    return positions;
  }

  /**
   * Deletes one position of the event whose cart id ends in `suffix`; its add-ons and answers go with it
   * (foreign keys cascade). Logs `pretix.event.cartposition.deleted`.
   * @returns false when there was no such position
   */
  async delete(em: EntityManager, actor: CartActor, id: number, suffix: string): Promise<boolean> {
    const rows = await this.queries.deleteOne(em, id, actor.event.id, `%${suffix}`);
    if (rows.length === 0) return false;
    await this.log(em, actor, id, 'pretix.event.cartposition.deleted', { cart_id: rows[0].cart_id });
    return true;
  }

  /** Ids of the live positions of the given carts (locked `FOR UPDATE` when `lock`), in id order. */
  async liveIn(
    em: EntityManager,
    eventId: number,
    cartIds: readonly string[],
    now: Date,
    lock: boolean,
  ): Promise<number[]> {
    if (cartIds.length === 0) return [];
    const rows = await this.queries.liveIds(em, eventId, cartIds, now, lock);
    return rows.map((r) => r.id);
  }

  /** Deletes the cart positions an order took over (locked by {@link liveIn}). */
  async deleteConsumed(em: EntityManager, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.queries.deleteByIds(em, ids);
  }

  /** Deletes the cart positions of an item (and add-ons to them, by the key): the item is being deleted. */
  async deleteOfItem(em: EntityManager, itemId: number): Promise<void> {
    await this.queries.deleteOfItem(em, itemId);
  }

  private async log(
    em: EntityManager,
    actor: CartActor,
    positionId: number,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, actor.principal, {
      organizerId: actor.event.organizerId,
      eventId: actor.event.id,
      contentType: CONTENT_TYPE,
      objectId: positionId,
      action,
      data,
    });
  }
}
