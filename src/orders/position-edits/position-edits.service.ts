import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { isDeepStrictEqual } from 'util';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import { NotFound, ValidationFailed } from '../../common/errors';
import { isoUtc } from '../../common/values/datetime';
import type { Event } from '../../organizers/event.entity';
import { OrderStatusQueries } from '../actions/order-status.queries';
import { AnswerQueries } from '../answers/answer.queries';
import { loadCheckedAnswers } from '../answers/answers-check';
import type { ValidatedAnswer } from '../answers/answers.rules';
import { generatePositionSecret } from '../create/order-rules';
import { OrderPosition } from '../entities/order-position.entity';
import { OrderPresentation } from '../presentation/order-presentation.service';
import type { OrderPositionJson } from '../presentation/order.presenter';
import { logOrder, OrderActor } from '../writing/order-log';
import type { UpdateOrderPositionDto } from './position-edit.dto';
import { EditTarget, PositionEditQueries } from './position-edit.queries';
import { answersChanged, bodyErrors, keptAnswers, modifiedLogData, patchedInfo } from './position-edit.rules';

/**
 * Edits of one order position (pretix "Order position endpoints", "Manipulating individual positions"):
 * `PATCH E/orderpositions/{id}/` (attendee fields, answers, validity) and `POST …/regenerate_secrets/`. Each runs
 * in one transaction that locks the order row, then the position; the order's `last_modified` moves; the position
 * is answered as `E/orderpositions/{id}/` shows it (after the commit). Changing product, variation, date, seat,
 * price, tax rule or secret is the order change endpoint's job: refused here.
 */
@Injectable()
export class PositionEdits {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly answers: AnswerQueries,
    private readonly secrets: OrderStatusQueries,
    private readonly presentation: OrderPresentation,
    private readonly queries: PositionEditQueries,
  ) {}

  /**
   * PATCH: only the fields sent change. `answers` replaces all answers of the position (validated as on order
   * create; answers with an empty text are dropped, as pretix does). Logs, when anything changed,
   * `pretix.event.order.modified` (`{"data": [{"position": id, ...sent fields, "question_<id>": answer}]}`), and
   * `pretix.event.order.changed.valid_from` / `.valid_until` (`position`, `positionid`, `old_value`,
   * `new_value`) for a changed validity.
   * @throws NotFound for an unknown or canceled position, or one of another event
   * @throws ValidationFailed a refused field (`{"item": [...]}`), `attendee_name` with `attendee_name_parts`, a
   *   state in a country without states, invalid answers (`{"answers": [{}, {"question": [...]}]}`)
   */
  async update(
    event: Event,
    principal: Principal,
    id: number,
    body: UpdateOrderPositionDto,
  ): Promise<OrderPositionJson> {
    const refused = bodyErrors(body, null);
    if (refused && !('state' in refused)) throw new ValidationFailed(refused);
    const actor: OrderActor = { event, principal };
    const target = await this.em.transaction(async (em) => {
      const locked = await this.queries.lockPosition(em, event.id, id);
      if (!locked) throw new NotFound();
      const { target, position } = locked;
      const errors = bodyErrors(body, position.country);
      if (errors) throw new ValidationFailed(errors);
      const newAnswers = body.answers !== undefined ? await this.checkAnswers(em, event, body) : null;

      const before = { ...position };
      const next = patchedInfo(position, body);
      const infoChanged = (Object.keys(next) as (keyof typeof next)[]).some(
        (k) => !isDeepStrictEqual(next[k], before[k]),
      );
      let answersDiffer = false;
      if (newAnswers !== null) {
        answersDiffer = answersChanged(await this.answers.ofOrderPosition(em, id), newAnswers);
        if (answersDiffer) {
          await this.answers.deleteOfOrderPosition(em, id);
          await this.answers.insert(
            em,
            newAnswers.map((answer) => ({ orderPositionId: id, cartPositionId: null, answer })),
          );
        }
      }
      if (!infoChanged && !answersDiffer) return target;
      await em.update(OrderPosition, { id }, next);
      await this.queries.touchOrder(em, target.orderId, new Date());
      const log = (action: string, data: Record<string, unknown>) =>
        logOrder(this.audit, em, actor, target.orderId, action, data);
      for (const [field, column] of [
        ['valid_from', 'validFrom'],
        ['valid_until', 'validUntil'],
      ] as const) {
        if (next[column]?.getTime() === before[column]?.getTime()) continue;
        await log(`pretix.event.order.changed.${field}`, {
          position: id,
          positionid: position.positionid,
          old_value: isoUtc(before[column]),
          new_value: isoUtc(next[column]),
        });
      }
      await log('pretix.event.order.modified', modifiedLogData(id, body, newAnswers));
      return target;
    });
    return this.present(id, target);
  }

  /**
   * `POST E/orderpositions/{id}/regenerate_secrets/`: a new ticket secret for the position; the old one is kept as
   * revoked (`E/revokedsecrets/`, so that scanning it answers `revoked`), as the order-level action does. Logs
   * `pretix.event.order.changed.secret` (`position`, `positionid`).
   * @throws NotFound for an unknown or canceled position, or one of another event
   */
  async regenerateSecret(event: Event, principal: Principal, id: number): Promise<OrderPositionJson> {
    const target = await this.em.transaction(async (em) => {
      const locked = await this.queries.lockPosition(em, event.id, id);
      if (!locked) throw new NotFound();
      const { target, position } = locked;
      await this.secrets.revokeSecrets(em, target.orderId, id);
      await this.queries.setSecret(em, target, id, generatePositionSecret(), new Date());
      await logOrder(
        this.audit,
        em,
        { event, principal },
        target.orderId,
        'pretix.event.order.changed.secret',
        {
          position: id,
          positionid: position.positionid,
        },
      );
      return target;
    });
    return this.present(id, target);
  }

  /** The answers of the body, checked with the order-create rules; the kept ones (non-empty, first per question). */
  private async checkAnswers(
    em: EntityManager,
    event: Event,
    body: UpdateOrderPositionDto,
  ): Promise<ValidatedAnswer[]> {
    const checked = await loadCheckedAnswers(this.catalogue, em, event, [body.answers]);
    if (checked.errors[0]) throw new ValidationFailed({ answers: checked.errors[0] });
    return keptAnswers(checked.answers[0]);
  }

  /** The position as `E/orderpositions/{id}/` shows it (read after the commit, on the pool). */
  private async present(id: number, target: EditTarget): Promise<OrderPositionJson> {
    const position = await this.em.findOneBy(OrderPosition, { id });
    if (!position) throw new NotFound();
    const [json] = await this.presentation.positions(
      this.em,
      [position],
      new Map([[target.orderId, target.orderCode]]),
      await this.presentation.ticketFacts(this.em, [id]),
    );
    return json;
  }
}
