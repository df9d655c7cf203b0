import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { productKey, QuotaLookup } from '../../catalogue/quotas/quota-lookup.service';
import { QuotaExceeded, QuotaReservations } from '../../catalogue/quotas/quota-reservations.service';
import { voucherUses } from '../../catalogue/vouchers/voucher-redemption.rules';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import type { Principal } from '../../auth/principal';
import { NotFound, ValidationFailed } from '../../common/errors';
import { setLockTimeout } from '../../common/persistence/lock-timeout';
import { withOneConnection } from '../../common/persistence/one-connection';
import { AppConfig } from '../../config/app-config';
import type { Event } from '../../organizers/event.entity';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { Order } from '../entities/order.entity';
import type { OrderJson, OrderPositionJson } from '../presentation/order.presenter';
import { OrderPresentation } from '../presentation/order-presentation.service';
import { seatTakenAsValidation } from '../seats/seat-taken';
import { OrderTransactionLog } from '../transactions/order-transaction-log';
import { AfterCommit, OrderHooks } from '../writing/order-hooks';
import type { OrderActor } from '../writing/order-log';
import type { ChangeOrderDto, CreateOrderPositionDto } from './order-change.dto';
import { ChangePlan, ChangeRequest, orderError } from './order-change.model';
import { OrderChangePlanner } from './order-change.planner';
import { OrderChangeQueries } from './order-change.queries';
import { CHANGE_MESSAGES, holdsPlaces, quotaDifference } from './order-change.rules';
import { OrderChangeSeats } from './order-change.seats';
import { OrderChangeWriter } from './order-change.writer';

/** DRF's message for an order code that names no order of the event (`order` of `POST E/orderpositions/`). */
export const unknownOrder = (code: string): string => `Object with code=${code} does not exist.`;

/**
 * Changing an order's contents (compat §4.4 "Changing order contents", pretix `OrderChangeManager`):
 * `POST E/orders/{code}/change/` and its thin wrappers `POST E/orderpositions/` (one new position) and
 * `DELETE E/orderpositions/{id}/` (cancel one). All or nothing: one transaction that locks, in the global order
 * of sales (README "Locks"), the event row (shared), the order row, the vouchers of canceled positions, the seats
 * asked for and the quotas that must give places ({@link QuotaReservations}, the same reservation as order
 * creation: only quotas with a positive difference, id order), then writes with a fixed number of statements
 * whatever the order's size ({@link OrderChangeWriter}). Places of canceled positions are free at the commit (the
 * maintained sales counts follow the rows). Lock waits are bounded by `ORDER_LOCK_TIMEOUT_MS` (409 with
 * `Retry-After`).
 */
@Injectable()
export class OrderChanges {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly config: AppConfig,
    private readonly tenancy: TenancyQueries,
    private readonly planner: OrderChangePlanner,
    private readonly queries: OrderChangeQueries,
    private readonly quotaLookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
    private readonly redemptions: VoucherRedemptions,
    private readonly seats: OrderChangeSeats,
    private readonly writer: OrderChangeWriter,
    private readonly hooks: OrderHooks,
    private readonly transactions: OrderTransactionLog,
    private readonly presentation: OrderPresentation,
  ) {}

  /**
   * `POST E/orders/{code}/change/`.
   * @param checkQuotas `?check_quotas=` (default true): false skips the quota check, not the quota-missing one
   * @returns the changed order as `GET E/orders/{code}/` shows it
   * @throws NotFound for a code that is no order of the event
   * @throws ValidationFailed field errors (`{"patch_positions": [{"position": [...]}]}`) or pretix's message
   *   as a bare list (`["The quota X does not have enough capacity left to perform the operation."]`)
   */
  async change(
    event: Event,
    principal: Principal,
    code: string,
    body: ChangeOrderDto,
    checkQuotas: boolean,
  ): Promise<OrderJson> {
    const req: ChangeRequest = {
      patch: body.patch_positions ?? [],
      cancel: (body.cancel_positions ?? []).map((p) => p.position),
      split: (body.split_positions ?? []).map((p) => p.position),
      create: body.create_positions ?? [],
      patchFees: body.patch_fees ?? [],
      cancelFees: (body.cancel_fees ?? []).map((f) => f.fee),
      createFees: body.create_fees ?? [],
      recalculate: body.recalculate_taxes ?? null,
      sendEmail: body.send_email ?? false,
      reissueInvoice: body.reissue_invoice ?? true,
      checkQuotas,
      createErrorsAtRoot: false,
    };
    return this.run(
      event,
      principal,
      () => Promise.resolve(code),
      req,
      async (conn, order) => {
        const [json] = await this.presentation.orders(conn, [order], new Map([[event.id, event.slug]]));
        return json;
      },
    );
  }

  /**
   * `POST E/orderpositions/`: one new position in the order named by `order` (pretix
   * `OrderPositionCreateForExistingOrderSerializer`); field errors at the body's root.
   * @returns the new position (201)
   * @throws ValidationFailed `{"order": ["Object with code=X does not exist."]}`, field errors or pretix's message
   */
  async addPosition(
    event: Event,
    principal: Principal,
    body: CreateOrderPositionDto,
    checkQuotas: boolean,
  ): Promise<OrderPositionJson> {
    const { order: code, ...position } = body;
    const req = this.single({ create: [position], checkQuotas, createErrorsAtRoot: true });
    const notFound = () => ValidationFailed.field('order', unknownOrder(code));
    return this.run(
      event,
      principal,
      () => Promise.resolve(code),
      req,
      async (conn, order, added) => {
        const [json] = await this.presentation.orders(conn, [order], new Map([[event.id, event.slug]]));
        return json.positions.find((p) => p.id === added[0])!;
      },
      notFound,
    );
  }

  /**
   * `DELETE E/orderpositions/{id}/`: cancels the position (and its add-ons) as a change of its order.
   * @throws NotFound for an unknown id, a canceled position or one of another event
   * @throws ValidationFailed `["This operation would leave the order empty. Please cancel the order itself instead."]`
   */
  async cancelPosition(event: Event, principal: Principal, id: number): Promise<void> {
    const req = this.single({ cancel: [id], checkQuotas: true });
    // A position that left its order between the lookup and the order lock (split off meanwhile) is not found.
    const moved = (err: unknown) =>
      err instanceof ValidationFailed && !Array.isArray(err.errors) && 'cancel_positions' in err.errors;
    await this.run(
      event,
      principal,
      async (em) => this.queries.orderCodeOfPosition(em, event.id, id),
      req,
      () => Promise.resolve(undefined),
    ).catch((err: unknown) => {
      throw moved(err) ? new NotFound() : err;
    });
  }

  private single(part: Partial<ChangeRequest>): ChangeRequest {
    return {
      patch: [],
      cancel: [],
      split: [],
      create: [],
      patchFees: [],
      cancelFees: [],
      createFees: [],
      recalculate: null,
      sendEmail: false,
      reissueInvoice: true,
      checkQuotas: true,
      createErrorsAtRoot: false,
      ...part,
    };
  }

  /**
   * One change in one transaction; after the commit, the hooks' follow-up work (invoice PDFs), then `present`
   * on the connection that wrote.
   */
  private run<T>(
    event: Event,
    principal: Principal,
    locate: (em: EntityManager) => Promise<string | null>,
    req: ChangeRequest,
    present: (conn: EntityManager, order: Order, added: number[]) => Promise<T>,
    notFound: () => Error = () => new NotFound(),
  ): Promise<T> {
    const actor: OrderActor = { event, principal };
    return withOneConnection(this.em, async (conn) => {
      let after: AfterCommit[] = [];
      const { order, added } = await seatTakenAsValidation(() =>
        conn.transaction(async (em) => {
          await setLockTimeout(em, this.config.orderLockTimeoutMs);
          if (!(await this.tenancy.lockEventForSale(em, event.id))) throw new NotFound();
          const code = await locate(em);
          const order =
            code !== null && code.length <= 16
              ? await em.findOne(Order, {
                  where: { eventId: event.id, code },
                  lock: { mode: 'pessimistic_write' },
                })
              : null;
          if (!order) throw notFound();
          const result = await this.apply(em, actor, event, order, req);
          after = result.after;
          return { order, added: result.added };
        }),
      );
      await this.hooks.afterCommit(after);
      return present(conn, order, added);
    });
  }

  /** The change of a locked order: plan, checks under the locks, writes. @returns new position ids, after-commit work */
  private async apply(
    em: EntityManager,
    actor: OrderActor,
    event: Event,
    order: Order,
    req: ChangeRequest,
  ): Promise<{ added: number[]; after: AfterCommit[] }> {
    const now = new Date();
    const positions = await this.queries.positions(em, order.id);
    const fees = await this.queries.fees(em, order.id);
    const plan = await this.planner.plan(em, event, order, positions, fees, req);
    if (!hasWork(plan)) return { added: [], after: [] };
    checkNotEmptied(plan);
    const quotasOf = await this.quotaLookup.forProducts(em, actor.event.id, [
      ...plan.taken,
      ...plan.released,
    ]);
    if (plan.taken.some((p) => quotasOf.get(productKey(p))!.length === 0)) {
      throw orderError(CHANGE_MESSAGES.quotaMissing);
    }
    const changedIds = [...plan.lines.values()].filter((l) => l.dirty).map((l) => l.before.id);
    if (plan.secrets.length > 0) {
      const taken = await this.queries.takenSecrets(em, actor.event.id, plan.secrets, changedIds);
      if (taken.size > 0 || new Set(plan.secrets).size !== plan.secrets.length) {
        throw orderError(CHANGE_MESSAGES.secretExists);
      }
    }
    // Locks in the order of sales: vouchers given back, seats, then the quotas that must give places.
    const canceled = [...plan.lines.values()].filter((l) => l.after.canceled).map((l) => l.before);
    await this.redemptions.release(em, voucherUses(canceled));
    await this.seats.resolve(em, event, plan, now);
    const diff = quotaDifference(plan.taken, plan.released, quotasOf);
    if (req.checkQuotas && holdsPlaces(order.status) && diff.size > 0) {
      try {
        await this.reservations.reserve(
          em,
          actor,
          [...diff.keys()].sort((a, b) => a - b),
          diff,
        );
      } catch (err) {
        if (err instanceof QuotaExceeded) throw orderError(CHANGE_MESSAGES.quota(err.quota.name));
        throw err;
      }
    }
    const written = await this.writer.write(em, actor, order, plan, req, now);
    await this.transactions.sync(em, order.id, now);
    if (written.split) await this.transactions.sync(em, written.split.id, now);
    const after: AfterCommit[] = [];
    const ctx = { em, event: actor.event, principal: actor.principal, transition: 'changed' as const };
    if (req.reissueInvoice && plan.invoiceDirty && holdsPlaces(order.status)) {
      after.push(...(await this.hooks.fire({ ...ctx, order })));
    }
    // The split-off order gets an invoice of its own when the original had one (pretix).
    if (written.split)
      after.push(...(await this.hooks.fire({ ...ctx, order: written.split, splitFrom: order })));
    return { added: written.added, after };
  }
}

/** Whether the plan changes anything (pretix: a commit without operations does nothing). */
function hasWork(plan: ChangePlan): boolean {
  return (
    plan.added.length > 0 ||
    plan.addedFees.length > 0 ||
    plan.logs.length > 0 ||
    [...plan.lines.values()].some((l) => l.dirty) ||
    [...plan.fees.values()].some((f) => f.dirty)
  );
}

/** pretix `_check_complete_cancel`: canceling or splitting off every position is refused. */
function checkNotEmptied(plan: ChangePlan): void {
  const current = plan.lines.size;
  const left =
    [...plan.lines.values()].filter((l) => !l.after.canceled && !l.split).length + plan.added.length;
  if (current > 0 && left < 1) throw orderError(CHANGE_MESSAGES.completeCancel);
}
