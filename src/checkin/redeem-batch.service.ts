import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService, AuditRecord } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { CheckinRefused, DomainError } from '../common/errors';
import { domainAnswer } from '../common/http/exception.filter';
import { setLockTimeout } from '../common/persistence/lock-timeout';
import { ApiValidationPipe } from '../common/validation/validation.pipe';
import { AppConfig } from '../config/app-config';
import {
  CheckinPositionJson,
  CheckinPositions,
  RedeemPosition,
} from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import type { Organizer } from '../organizers/organizer.entity';
import { CHECKIN_EVENTS, type CheckinEvents } from './checkin-events.port';
import { CheckinRpcService, REDEEM } from './checkin-rpc';
import type { CheckinListsService } from './checkin-lists.service';
import { conflictOf, offlineOutcome, OfflineOutcome, StoredScan } from './offline-conflict';
import type { RedeemBatchDto } from './redeem-batch.dto';
import type { RedeemBatchJson, RedeemBatchResult } from './redeem-batch.presenter';
import { BatchFailedInsert, BatchOkInsert, RedeemBatchQueries } from './redeem-batch.queries';
import { RpcRedeemDto } from './redeem.dto';
import { toListJson } from './redeem.presenter';
import { REASON_EXPLANATIONS, refusal } from './redeem.rules';
import { Decision, RedeemService } from './redeem.service';
import { scanDevice } from './scan-device';

type Scope = Awaited<ReturnType<CheckinListsService['scope']>>;
type Lists = { listId: number; event: Event; scope: Scope }[];

/** A valid scan whose ticket was found: what it is decided on. */
interface Planned {
  index: number;
  dto: RpcRedeemDto;
  event: Event;
  scope: Scope;
  ticket: RedeemPosition;
  at: Date;
  decision?: Decision;
}

const PIPE = new ApiValidationPipe();

/**
 * `POST O/checkinrpc/redeem_batch/` (README "Batch redeem"): up to 1,000 scans of `checkinrpc/redeem/` in one
 * request and ONE transaction, each answered as the single redeem answers it (`status_code` + its body), in order.
 *
 * Set-based: lists are resolved once per distinct `lists`, all tickets are looked up and row-locked in one
 * statement (id order: parallel batches and single redeems queue on the tickets they share), their scans read in one,
 * and the scans written in bulk (successful, refused, log entries: one statement each). A ticket scanned more than
 * once in the batch, or one whose redeem needs more than the set-wise path knows (check-in questions, add-on
 * matching, list rules), is decided by the single redeem's own code ({@link RedeemService.decide}) inside the same
 * transaction, under a savepoint so that a scan's invalid input (answers) undoes only that scan.
 *
 * Nonces work as for single scans: a scan whose nonce is already stored with a successful scan of the ticket on the
 * list answers `ok` again and stores nothing; a refused one with a known nonce stores nothing new.
 */
@Injectable()
export class RedeemBatchService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly rpc: CheckinRpcService,
    private readonly positions: CheckinPositions,
    private readonly redeems: RedeemService,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
    private readonly queries: RedeemBatchQueries,
    @Inject(CHECKIN_EVENTS) private readonly events: CheckinEvents,
  ) {}

  /**
   * @returns one result per scan, in order
   * @throws LockTimeout (409) when the tickets stay locked longer than the lock timeout (nothing is stored)
   */
  async redeemBatch(
    organizer: Organizer,
    principal: Principal,
    body: RedeemBatchDto,
  ): Promise<RedeemBatchJson> {
    const results = new Array<RedeemBatchResult>(body.scans.length);
    const valid: { index: number; dto: RpcRedeemDto; lists: Lists }[] = [];
    const resolved = new Map<string, Lists | DomainError>();
    for (const [index, raw] of body.scans.entries()) {
      try {
        const dto = (await PIPE.transform(raw, { type: 'body', metatype: RpcRedeemDto })) as RpcRedeemDto;
        const key = dto.lists.join(',');
        if (!resolved.has(key)) resolved.set(key, await this.resolve(organizer, principal, dto.lists));
        const lists = resolved.get(key)!;
        if (lists instanceof DomainError) throw lists;
        valid.push({ index, dto, lists });
      } catch (e) {
        results[index] = failure(e);
      }
    }
    const storedIds: number[] = [];
    const planned = await this.db.transaction(async (em) => {
      await setLockTimeout(em, this.config.lockTimeoutMs);
      const eventIds = new Set(valid.flatMap((v) => v.lists.map((l) => l.event.id)));
      const found = await this.positions.forRedeemMany(
        em,
        [...eventIds],
        [...new Set(valid.map((v) => v.dto.secret))],
      );
      const out: Planned[] = [];
      for (const { index, dto, lists } of valid) {
        const hit = lists.find((l) => found.get(l.event.id)?.has(dto.secret));
        if (!hit) {
          results[index] = unknownTicket(lists);
          continue;
        }
        const ticket = found.get(hit.event.id)!.get(dto.secret)!;
        const at = dto.datetime ? new Date(dto.datetime) : new Date();
        out.push({ index, dto, event: hit.event, scope: hit.scope, ticket, at });
      }
      const seen = new Map<number, number>();
      for (const p of out) seen.set(p.ticket.id, (seen.get(p.ticket.id) ?? 0) + 1);
      const alone = (p: Planned) => seen.get(p.ticket.id) === 1 && setWise(p);
      for (const p of out.filter((x) => !alone(x))) {
        await this.queries.savepoint(em);
        try {
          p.decision = await this.redeems.decide(em, p.event, principal, p.scope, p.ticket, p.dto, p.at);
          await this.queries.release(em);
        } catch (e) {
          if (!(e instanceof DomainError)) throw e;
          await this.queries.rollback(em);
          results[p.index] = failure(e);
        }
      }
      storedIds.push(...(await this.decideSetWise(em, principal, out.filter(alone))));
      return out;
    });
    this.publish(planned, storedIds);
    await this.answer(planned, results);
    return { results };
  }

  /** The lists of a scan as the single RPC resolves them, or the error it would answer. */
  private async resolve(
    organizer: Organizer,
    principal: Principal,
    ids: number[],
  ): Promise<Lists | DomainError> {
    try {
      return await this.rpc.resolve(organizer, principal, ids, REDEEM);
    } catch (e) {
      if (e instanceof DomainError) return e;
      throw e;
    }
  }

  /**
   * Decides the scans of tickets scanned once in the batch with the single redeem's rules ({@link refusal},
   * {@link offlineOutcome}) against their stored scans, and writes them in bulk; sets each `decision`.
   */
  private async decideSetWise(em: EntityManager, principal: Principal, scans: Planned[]): Promise<number[]> {
    if (scans.length === 0) return [];
    const stored = new Map<string, Awaited<ReturnType<RedeemBatchQueries['successfulScans']>>>();
    for (const row of await this.queries.successfulScans(
      em,
      scans.map((p) => [p.ticket.id, p.scope.id]),
    )) {
      const key = `${row.position_id} ${row.list_id}`;
      stored.set(key, [...(stored.get(key) ?? []), row]);
    }
    const ok: BatchOkInsert[] = [];
    const failed: BatchFailedInsert[] = [];
    const logs = new Map<number, AuditRecord>();
    const wins: { p: Planned; demote: StoredScan[] }[] = [];
    for (const p of scans) {
      const { dto, ticket, scope, event, at } = p;
      const list = scope.list;
      const rows = stored.get(`${ticket.id} ${scope.id}`) ?? [];
      const attention = ticket.orderAttention;
      if (dto.nonce != null && rows.some((r) => r.nonce === dto.nonce)) {
        p.decision = { ok: true, positionId: ticket.id, attention };
        continue;
      }
      const type = dto.type === 'exit' ? 'exit' : 'entry';
      const force = dto.force === true;
      const sorted = [...rows].sort((a, b) => a.datetime.getTime() - b.datetime.getTime() || a.id - b.id);
      const entries = sorted.filter((c) => c.type === 'entry').length;
      const rules = {
        ...scope,
        allowMultipleEntries: list.allowMultipleEntries,
        allowEntryAfterExit: list.allowEntryAfterExit,
      };
      const reason = refusal(
        rules,
        ticket,
        {
          type,
          force,
          ignoreUnpaid: dto.ignore_unpaid === true,
          canceledSupported: dto.canceled_supported === true,
          at,
        },
        { entries, last: sorted[sorted.length - 1]?.type ?? null },
      );
      const outcome: OfflineOutcome = reason
        ? { kind: 'none' }
        : offlineOutcome(
            list,
            { type, force, dated: dto.datetime != null, at },
            rows.map((r) => ({
              id: r.id,
              type: r.type,
              datetime: r.datetime,
              deviceId: r.device_id,
              gateId: r.gate_id,
            })),
          );
      const base = {
        position_id: ticket.id,
        event_id: event.id,
        list_id: list.id,
        type,
        datetime: at.toISOString(),
        nonce: dto.nonce ?? null,
      };
      const entry = {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: 'order',
        objectId: ticket.orderId,
      };
      if (reason || outcome.kind === 'loses') {
        const code = reason ?? 'already_redeemed';
        failed.push({
          ...base,
          error_reason: code,
          error_explanation: REASON_EXPLANATIONS[code],
          conflict: outcome.kind === 'loses' ? conflictOf(outcome.entry) : null,
          forced: outcome.kind === 'loses',
        });
        logs.set(ticket.id, {
          ...entry,
          action: 'pretix.event.checkin.denied',
          data: { position: ticket.id, positionid: null, errorcode: code, list: list.id, type },
        });
        p.decision = reason
          ? { ok: false, reason, positionId: ticket.id, attention }
          : { ok: true, positionId: ticket.id, attention };
        continue;
      }
      ok.push({ ...base, forced: force });
      logs.set(ticket.id, {
        ...entry,
        action: type === 'exit' ? 'pretix.event.checkin.exit' : 'pretix.event.checkin',
        data: { position: ticket.id, first: entries === 0, forced: force, list: list.id, type },
      });
      if (outcome.kind === 'wins') wins.push({ p, demote: outcome.demote });
      p.decision = { ok: true, positionId: ticket.id, attention };
    }
    const device = scanDevice(principal);
    const admitted = await this.queries.insertOk(em, ok, device.deviceId, device.gateId);
    const written = [
      ...admitted,
      ...(await this.queries.insertFailed(em, failed, device.deviceId, device.gateId)),
    ];
    await this.audit.recordMany(
      em,
      principal,
      written.map((w) => {
        const entry = logs.get(w.position_id)!;
        return { ...entry, data: { ...entry.data, checkin: w.id } };
      }),
    );
    const okIds = new Map(written.map((w) => [w.position_id, w.id]));
    for (const { p, demote } of wins) {
      const id = okIds.get(p.ticket.id);
      if (id !== undefined) {
        await this.redeems.demote(em, p.event, principal, p.scope.id, p.ticket, demote, { id, at: p.at });
      }
    }
    return admitted.map((w) => w.id);
  }

  /**
   * Tells the lists' live streams (after the commit) of the batch's successful scans: those stored set-wise by
   * id, those the single redeem's code stored by ticket and list ({@link CheckinEvents}).
   */
  private publish(planned: Planned[], storedIds: number[]): void {
    if (storedIds.length > 0) this.events.committed({ kind: 'checkins', checkinIds: storedIds });
    const scans = planned.flatMap((p) =>
      p.decision?.ok && p.decision.storedAfter !== undefined
        ? [{ listId: p.scope.id, positionId: p.decision.positionId, afterId: p.decision.storedAfter }]
        : [],
    );
    if (scans.length > 0) this.events.committed({ kind: 'scans', scans });
  }

  /** Fills the results of the decided scans with the single redeem's answers (positions read per list at once). */
  private async answer(planned: Planned[], results: RedeemBatchResult[]): Promise<void> {
    const byList = new Map<number, Planned[]>();
    for (const p of planned) {
      if (p.decision) byList.set(p.scope.id, [...(byList.get(p.scope.id) ?? []), p]);
    }
    for (const group of byList.values()) {
      const shown = await this.positions.many(
        group[0].scope,
        group.map((p) => p.decision!.positionId),
      );
      for (const p of group) {
        results[p.index] = answerOf(
          p.decision!,
          shown.get(p.decision!.positionId)!,
          toListJson(p.scope.list, p.event),
        );
      }
    }
  }
}

/** Whether the set-wise path decides the scan exactly as the single redeem (else the single redeem's code runs). */
function setWise(p: Planned): boolean {
  const { scope, ticket } = p;
  if (ticket.hasCheckinQuestions) return false;
  if (Object.keys(scope.list.rules ?? {}).length > 0) return false;
  return !(scope.list.addonMatch && !scope.list.allProducts && !scope.itemIds.includes(ticket.itemId));
}

/** The single redeem's answer to a decided scan, with its status code. */
function answerOf(
  decision: Decision,
  position: CheckinPositionJson,
  list: ReturnType<typeof toListJson>,
): RedeemBatchResult {
  const attention = decision.attention || position.require_attention;
  if (decision.ok) return { status_code: 201, status: 'ok', require_attention: attention, position, list };
  if ('questions' in decision) {
    return {
      status_code: 400,
      status: 'incomplete',
      require_attention: attention,
      position,
      questions: decision.questions,
      list,
    };
  }
  return {
    status_code: 400,
    status: 'error',
    reason: decision.reason,
    reason_explanation: REASON_EXPLANATIONS[decision.reason],
    require_attention: attention,
    position,
    list,
  };
}

/** The 404 `invalid` of a secret no list's event has (as the single RPC: named by the first list). */
function unknownTicket(lists: Lists): RedeemBatchResult {
  const first = lists[0];
  return {
    status_code: 404,
    status: 'error',
    reason: 'invalid',
    reason_explanation: REASON_EXPLANATIONS.invalid,
    require_attention: false,
    list: toListJson(first.scope.list, first.event),
  };
}

/** A domain error as the single redeem would answer it (status and body). */
function failure(e: unknown): RedeemBatchResult {
  const answer = e instanceof DomainError ? domainAnswer(e) : null;
  if (!answer) throw e;
  const body = e instanceof CheckinRefused ? e.body : answer.body;
  // A bare list (`["Selecting two check-in lists …"]`) cannot be spread: it goes under `non_field_errors`.
  if (Array.isArray(body)) return { status_code: answer.status, non_field_errors: body as string[] };
  return { status_code: answer.status, ...(body as object) };
}
