import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { CheckinRefused } from '../common/errors';
import { setLockTimeout } from '../common/persistence/lock-timeout';
import { AppConfig } from '../config/app-config';
import { CheckinPositions, RedeemPosition } from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import type { CheckinList } from './checkin-list.entity';
import { CHECKIN_EVENTS, type CheckinEvents } from './checkin-events.port';
import { CheckinListsService } from './checkin-lists.service';
import { CheckinQueries, SCAN_ENTRY_DATA } from './checkin.queries';
import type { RedeemDto } from './redeem.dto';
import { QuestionsService } from '../catalogue/questions/questions.service';
import type { QuestionJson } from '../catalogue/questions/question.presenter';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import { fileAnswerRefs, readCheckinAnswers } from './checkin-answers';
import { UploadedFiles } from '../tasks/uploads/uploaded-files.service';
import { RuleContext, rulesAdmit, RuleScan } from './checkin-logic';
import { RedeemOkJson, toListJson } from './redeem.presenter';
import { addonMatch, REASON_EXPLANATIONS, RedeemReason, refusal } from './redeem.rules';
import { conflictOf, offlineOutcome, StoredScan } from './offline-conflict';
import { scanDevice } from './scan-device';

/** What a redeem decided inside its transaction (a refusal is answered after the commit that stored it). */
export type Decision =
  | { ok: true; positionId: number; attention: boolean; storedAfter?: number }
  | { ok: false; reason: RedeemReason; positionId: number; attention: boolean }
  | { ok: false; reason: 'incomplete'; questions: QuestionJson[]; positionId: number; attention: boolean };

/**
 * Redeeming a ticket on a check-in list (compat §3.21): finds the event's position by secret (or id unless the
 * input is untrusted), row-locks it so that scans of one ticket are decided one after the other (of 20 scanners at
 * the same moment exactly one gets `ok`), applies the list's rules ({@link refusal}), and stores the scan: a
 * successful check-in, or an unsuccessful one with its reason (logged `pretix.event.checkin.denied`). A nonce
 * already stored with a successful check-in of the same ticket on the list answers `ok` again without a second
 * check-in; the same nonce on another ticket does not (README "Security", "Check-in"). Unknown tickets answer 404
 * `invalid` and store nothing.
 */
@Injectable()
export class RedeemService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly lists: CheckinListsService,
    private readonly positions: CheckinPositions,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
    private readonly questions: QuestionsService,
    private readonly queries: CheckinQueries,
    @Inject(CHECKIN_EVENTS) private readonly events: CheckinEvents,
    private readonly uploads: UploadedFiles,
  ) {}

  /**
   * @param identifier the ticket secret, or a position id when `byId`
   * @throws NotFound for an unknown list
   * @throws CheckinRefused 404 for an unknown ticket, 400 for a refused scan
   */
  async redeem(
    event: Event,
    principal: Principal,
    listId: number,
    identifier: string,
    body: RedeemDto,
    byId: boolean,
  ): Promise<RedeemOkJson> {
    const at = body.datetime ? new Date(body.datetime) : new Date();
    const { decision, list, scope } = await this.db.transaction(async (em) => {
      await setLockTimeout(em, this.config.lockTimeoutMs);
      const scope = await this.lists.scope(em, event, listId);
      const found =
        (await this.positions.forRedeem(em, event.id, identifier, byId)) ??
        (identifier.includes('+')
          ? await this.positions.forRedeem(em, event.id, identifier.replace(/\+/g, ' '), false)
          : null);
      if (!found) return { decision: null, list: scope.list, scope };
      return {
        decision: await this.decide(em, event, principal, scope, found, body, at),
        list: scope.list,
        scope,
      };
    });
    if (decision?.ok && decision.storedAfter !== undefined) {
      this.events.committed({
        kind: 'scans',
        scans: [{ listId: list.id, positionId: decision.positionId, afterId: decision.storedAfter }],
      });
    }
    const listJson = toListJson(list, event);
    if (!decision) {
      throw new CheckinRefused('unknown', {
        status: 'error',
        reason: 'invalid',
        reason_explanation: REASON_EXPLANATIONS.invalid,
        require_attention: false,
        list: listJson,
      });
    }
    const position = await this.positions.one(scope, decision.positionId);
    const attention = decision.attention || position.require_attention;
    if (!decision.ok && 'questions' in decision) {
      throw new CheckinRefused('known', {
        status: 'incomplete',
        require_attention: attention,
        position,
        questions: decision.questions,
        list: listJson,
      });
    }
    if (!decision.ok) {
      throw new CheckinRefused('known', {
        status: 'error',
        reason: decision.reason,
        reason_explanation: REASON_EXPLANATIONS[decision.reason],
        require_attention: attention,
        position,
        list: listJson,
      });
    }
    return { status: 'ok', require_attention: attention, position, list: listJson };
  }

  /**
   * Decides and stores one scan of the found (row-locked) ticket inside the caller's transaction: what
   * {@link redeem} does once the ticket is found; the batch redeem calls it for the scans it does not decide set-wise.
   */
  async decide(
    em: EntityManager,
    event: Event,
    principal: Principal,
    scope: Awaited<ReturnType<CheckinListsService['scope']>>,
    found: RedeemPosition,
    body: RedeemDto,
    at: Date,
  ): Promise<Decision> {
    const type = body.type === 'exit' ? 'exit' : 'entry';
    const list = scope.list;
    let ticket = found;
    const rules = {
      ...scope,
      itemIds: scope.itemIds,
      allowMultipleEntries: list.allowMultipleEntries,
      allowEntryAfterExit: list.allowEntryAfterExit,
    };
    if (list.addonMatch && !list.allProducts && !scope.itemIds.includes(found.itemId)) {
      const match = addonMatch(rules, found.addons);
      if (match === 'ambiguous')
        return this.refuse(em, event, principal, list, found, 'ambiguous', body, type, at);
      if (match !== null)
        ticket = (await this.positions.forRedeem(em, event.id, String(match), true)) ?? found;
    }
    // The ticket's earlier successful scans on the list, each marked when it was made with the scanner's nonce:
    // then this is a repeat of that scan, answered `ok` again without a second check-in. Only this ticket's scans
    // count (README "Security", "Check-in"; as pretix): another ticket's nonce says nothing about this one.
    const rows = await this.queries.successfulScans(em, ticket.id, list.id, body.nonce ?? null);
    if (rows.some((r) => r.again))
      return { ok: true, positionId: ticket.id, attention: ticket.orderAttention };
    const scans: RuleScan[] = rows
      .map((r) => ({ id: r.id, type: r.type, datetime: r.datetime }))
      .sort((a, b) => a.datetime.getTime() - b.datetime.getTime() || a.id - b.id);
    const earlier = {
      entries: scans.filter((c) => c.type === 'entry').length,
      last: scans[scans.length - 1]?.type ?? null,
    };
    const force = body.force === true;
    const reason = refusal(
      rules,
      ticket,
      {
        type,
        force,
        ignoreUnpaid: body.ignore_unpaid === true,
        canceledSupported: body.canceled_supported === true,
        at,
      },
      earlier,
    );
    if (reason) return this.refuse(em, event, principal, list, ticket, reason, body, type, at);
    if (
      type === 'entry' &&
      !force &&
      !rulesAdmit(list.rules, await this.ruleContext(em, event, ticket, at, scans))
    ) {
      return this.refuse(em, event, principal, list, ticket, 'rules', body, type, at);
    }
    // Offline double entry (offline-conflict.ts): the earlier-dated forced entry is the entry, the later one is kept
    // as failed `already_redeemed` with the conflict; the answer stays `ok` (a forced scan always answers ok).
    const outcome = offlineOutcome(
      list,
      { type, force, dated: body.datetime != null, at },
      rows.map((r) => ({
        id: r.id,
        type: r.type,
        datetime: r.datetime,
        deviceId: r.device_id,
        gateId: r.gate_id,
      })),
    );
    const questions = ticket.hasCheckinQuestions
      ? await this.questions.checkinQuestions(em, event.id, ticket.itemId)
      : [];
    if (questions.length > 0) {
      const refs = fileAnswerRefs(questions, body.answers);
      const files = refs.length > 0 ? await this.uploads.check(em, principal, refs) : undefined;
      const given = readCheckinAnswers(event.id, questions, body.answers, files);
      for (const answer of given) {
        if (answer.uploadId === undefined) continue;
        answer.answer = await this.uploads.keep(em, answer.uploadId, event.organizerId);
        delete answer.uploadId;
      }
      await this.positions.saveAnswers(em, ticket.id, given);
      if (type === 'entry' && !force && body.questions_supported !== false) {
        const answered = await this.positions.answeredQuestions(
          em,
          ticket.id,
          questions.map((q) => q.id),
        );
        const missing = questions.filter((q) => !answered.has(q.id));
        if (missing.length > 0) {
          return {
            ok: false,
            reason: 'incomplete',
            questions: missing,
            positionId: ticket.id,
            attention: ticket.orderAttention,
          };
        }
      }
    }
    if (outcome.kind === 'loses') {
      await this.refuse(em, event, principal, list, ticket, 'already_redeemed', body, type, at, {
        conflict: conflictOf(outcome.entry),
        forced: true,
      });
      return { ok: true, positionId: ticket.id, attention: ticket.orderAttention };
    }
    const device = scanDevice(principal);
    // The check-in and its log entry in one statement (a door scanner's hot path).
    const data = { position: ticket.id, first: earlier.entries === 0, forced: force, list: list.id, type };
    const stored =
      (
        await this.audit.recordEach(
          em,
          principal,
          {
            organizerId: event.organizerId,
            eventId: event.id,
            contentType: 'order',
            objectId: 'order_id',
            action: type === 'exit' ? 'pretix.event.checkin.exit' : 'pretix.event.checkin',
            data: SCAN_ENTRY_DATA,
          },
          this.queries.successfulScanInsert(),
          [
            ...[ticket.id, event.id, list.id, type, at, force, body.nonce ?? null, device.deviceId, device.gateId],
            ...[ticket.orderId, JSON.stringify(data)],
          ],
        )
      ).length > 0;
    if (outcome.kind === 'wins') {
      const id = await this.queries.newestSuccessfulId(em, ticket.id, list.id);
      if (id !== null) await this.demote(em, event, principal, list.id, ticket, outcome.demote, { id, at });
    }
    return {
      ok: true,
      positionId: ticket.id,
      attention: ticket.orderAttention,
      // For the live stream: the new scan is numbered above the ticket's earlier ones on the list.
      storedAfter: stored ? Math.max(0, ...rows.map((r) => r.id)) : undefined,
    };
  }

  /** What the list's rules see of this scan; reads the ticket's date only when it has one. */
  private async ruleContext(
    em: EntityManager,
    event: Event,
    ticket: RedeemPosition,
    at: Date,
    scans: RuleScan[],
  ): Promise<RuleContext> {
    const times =
      (ticket.subeventId !== null
        ? await new SubEventQueries().subeventTimes(em, event.id, ticket.subeventId)
        : null) ?? event;
    return {
      itemId: ticket.itemId,
      variationId: ticket.variationId,
      at,
      timezone: event.timezone,
      scans,
      dateFrom: times.dateFrom,
      dateTo: times.dateTo,
      dateAdmission: times.dateAdmission,
    };
  }

  /**
   * Offline double entry: the stored entries `demote` lost to the earlier-dated entry `winner` (just stored by
   * `principal`'s scan): they become failed `already_redeemed` with the conflict, each logged
   * `pretix.event.checkin.denied` (data `conflict: true`).
   */
  async demote(
    em: EntityManager,
    event: Event,
    principal: Principal,
    listId: number,
    ticket: RedeemPosition,
    demote: readonly StoredScan[],
    winner: { id: number; at: Date },
  ): Promise<void> {
    const device = scanDevice(principal);
    await this.queries.demoteToConflict(
      em,
      demote.map((d) => d.id),
      REASON_EXPLANATIONS.already_redeemed,
      conflictOf({ id: winner.id, type: 'entry', datetime: winner.at, ...device }),
    );
    await this.audit.recordMany(
      em,
      principal,
      demote.map((d) => ({
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: 'order',
        objectId: ticket.orderId,
        action: 'pretix.event.checkin.denied',
        data: {
          position: ticket.id,
          checkin: d.id,
          errorcode: 'already_redeemed',
          list: listId,
          conflict: true,
        },
      })),
    );
  }

  /** Stores the refused scan on the known ticket and logs it (`extra`: an offline double entry's bookkeeping). */
  private async refuse(
    em: EntityManager,
    event: Event,
    principal: Principal,
    list: CheckinList,
    ticket: RedeemPosition,
    reason: RedeemReason,
    body: RedeemDto,
    type: string,
    at: Date,
    extra: { conflict: object; forced: boolean } | null = null,
  ): Promise<Decision> {
    const device = scanDevice(principal);
    const data = { position: ticket.id, positionid: null, errorcode: reason, list: list.id, type };
    await this.audit.recordEach(
      em,
      principal,
      {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: 'order',
        objectId: 'order_id',
        action: 'pretix.event.checkin.denied',
        data: SCAN_ENTRY_DATA,
      },
      this.queries.refusedScanInsert(),
      [
        ticket.id,
        event.id,
        list.id,
        type,
        at,
        reason,
        REASON_EXPLANATIONS[reason],
        body.nonce ?? null,
        device.deviceId,
        device.gateId,
        extra ? JSON.stringify(extra.conflict) : null,
        extra?.forced ?? false,
        ticket.orderId,
        JSON.stringify(data),
      ],
    );
    return { ok: false, reason, positionId: ticket.id, attention: ticket.orderAttention };
  }
}
