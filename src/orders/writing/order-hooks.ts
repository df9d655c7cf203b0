import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import type { OrderActor } from './order-log';
import type { Order } from '../entities/order.entity';

/**
 * An order status change that contexts above orders react to; `changed`: the order's contents changed in a way an
 * invoice shows (compat §4.4 "Changing order contents" with `reissue_invoice`).
 */
export type OrderTransition = 'placed' | 'paid' | 'canceled' | 'changed';

/** What a handler sees: the changed order (its new state applied), inside the writing transaction. */
export interface OrderTransitionContext {
  em: EntityManager;
  event: OrderActor['event'];
  order: Order;
  principal: Principal;
  transition: OrderTransition;
  /** With `changed`: the order that `order` was split off (pretix's split order gets an invoice of its own). */
  splitFrom?: Order;
}

/** Work a handler leaves for after the commit (e.g. enqueueing a job that reads the committed rows). */
export type AfterCommit = () => Promise<void>;

/** Runs inside the transaction of the change; may give back work for after the commit. */
export type OrderTransitionHandler = (ctx: OrderTransitionContext) => Promise<AfterCommit | void>;

/**
 * What contexts above orders contribute to order status changes without orders importing them (architecture.md
 * "Layout": orders is below invoices): the invoices context registers at module init (automatic invoices on
 * placement or payment, the cancellation invoice of a canceled order). The orders writers fire the hooks after
 * applying a change, in the same transaction, and run the returned work after the commit. Without a registered
 * handler (a process without the invoices context, e.g. the worker's expiry) nothing happens.
 */
@Injectable()
export class OrderHooks {
  private readonly logger = new Logger('Orders');
  private readonly handlers: OrderTransitionHandler[] = [];

  onTransition(handler: OrderTransitionHandler): void {
    this.handlers.push(handler);
  }

  /** Runs every handler in order (their errors roll the change back). @returns the after-commit work */
  async fire(ctx: OrderTransitionContext): Promise<AfterCommit[]> {
    const after: AfterCommit[] = [];
    for (const handler of this.handlers) {
      const work = await handler(ctx);
      if (work) after.push(work);
    }
    return after;
  }

  /** Runs after-commit work; a failure is logged, never answered (the change is committed). */
  async afterCommit(work: readonly AfterCommit[]): Promise<void> {
    for (const w of work) {
      try {
        await w();
      } catch (err) {
        this.logger.warn(`after-commit work of an order change failed: ${(err as Error).message}`);
      }
    }
  }
}
