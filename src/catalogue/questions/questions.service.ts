import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Injectable } from '@nestjs/common';
import { findOrNotFound, findParentOr403 } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { FieldErrors, ValidationFailed } from '../../common/errors';
import type { RelatedSpec } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { mergeInput, WriteMode } from '../../common/persistence/write';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { parseDateTimeOrNull } from '../../common/values/datetime';
import { toI18n } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import type { CreateQuestionOptionDto } from './question-option.dto';
import { QuestionOption } from './question-option.entity';
import { effectiveDependencyValues, randomIdentifier } from './question-rules';
import type { CreateQuestionDto, ReplaceQuestionDto } from './question.dto';
import { Question } from './question.entity';
import { QUESTION_IDENTIFIER_TAKEN, QuestionInput, validateQuestion, ValuesKey } from './question-validation';
import { decimal6OrNull, QuestionJson, toQuestionJson } from './question.presenter';
import { IdentifierTable, QuestionQueries, QuestionRelated } from './question.queries';

/** Defaults of optional question fields (compat §3.15); PUT resets omitted ones to these. */
const QUESTION_DEFAULTS: Omit<QuestionInput, 'question' | 'type' | 'items'> = {
  help_text: {},
  required: false,
  position: 0,
  identifier: null,
  ask_during_checkin: false,
  show_during_checkin: false,
  hidden: false,
  print_on_invoice: false,
  valid_number_min: null,
  valid_number_max: null,
  valid_date_min: null,
  valid_date_max: null,
  valid_datetime_min: null,
  valid_datetime_max: null,
  valid_file_portrait: false,
  valid_string_length_min: null,
  valid_string_length_max: null,
  dependency_question: null,
  dependency_values: [],
};

const present = (q: Question, r: QuestionRelated): QuestionJson => toQuestionJson(q, r.items, r.options);

/** Audit content type of questions and (with the question as object) of their options. */
export const QUESTION_CONTENT_TYPE = 'question';

export const OPTIONS_NOT_UPDATABLE =
  'Updating options via PATCH/PUT is not supported. Please use the dedicated nested endpoint.';

/** The message for an option identifier used elsewhere in the event (compat §3.16). */
export const optionIdentifierTaken = (identifier: string): string =>
  `The identifier "${identifier}" is already used for a different option.`;

/**
 * Questions of one event: list, detail, create (with inline options), update, delete (compat §3.15, spec
 * "Question"). Every query is scoped by the event resolved by the permission guard. All question and option writes
 * of an event are serialised by a transaction-scoped advisory lock, so that the dependency rules (no cycles,
 * values matching the options) and identifier uniqueness hold under concurrent writes.
 */
@Injectable()
@RendersChanges('question')
export class QuestionsService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: QuestionQueries,
  ) {}

  /**
   * One page of the event's questions with their items and options. Filters `identifier` (exact),
   * `ask_during_checkin` and `required` (booleans, 400 otherwise); ordering `id`, `position` (default
   * `position,id`). One SQL statement whatever the page size (rows, count, item ids and options).
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<QuestionJson>> {
    return this.queries.page(this.db, event.id, filters, page, this.related(), present);
  }

  /** The change feed's question objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /** The detail answers of the questions `refs` names that still exist in their event, by id; one statement. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, QuestionJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.queries.many(this.db, refIds(refs), this.related(), (q, r) => ({
      id: q.id,
      eventId: q.eventId,
      json: present(q, r),
    }));
    return byRef(refs, rows);
  }

  /** @throws NotFound for an id that is not a question of this event */
  async get(event: Event, id: number): Promise<QuestionJson> {
    return this.queries.one(this.db, event.id, id, this.related(), present);
  }

  /**
   * The event's questions asked during check-in (`ask_during_checkin`) for a product, as the spec shows them, by
   * position then id (compat §3.21 `incomplete`); one statement.
   */
  async checkinQuestions(em: EntityManager, eventId: number, itemId: number): Promise<QuestionJson[]> {
    return this.queries.checkinQuestions(em, eventId, itemId, this.related(), present);
  }

  /**
   * Creates a question and its inline `options` in one transaction (all or nothing); generates missing
   * identifiers; logs `pretix.event.question.added`.
   * @throws ValidationFailed on invalid fields, dependency rules, foreign items, or taken identifiers (inline
   *   option errors are aligned with the list: `{"options": [{}, {"identifier": ["..."]}]}`)
   */
  async create(event: Event, principal: Principal, body: CreateQuestionDto): Promise<QuestionJson> {
    const { options: inline = [], dependency_value: legacy, ...rest } = body;
    const input = this.resolveInput(rest, legacy, { ...QUESTION_DEFAULTS } as QuestionInput);
    return this.db.transaction(async (em) => {
      await this.lockEvent(em, event.id);
      const errors: FieldErrors = (
        await validateQuestion(this.queries, em, event, input, null, valuesKey(legacy))
      ).toJSON();
      const prepared = await this.prepareInlineOptions(em, event.id, inline);
      if (prepared.errors) errors.options = prepared.errors;
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

      const identifier = input.identifier ?? (await this.newIdentifier(em, 'question', event.id));
      const question = em.create(Question, { eventId: event.id });
      this.apply(question, input, identifier);
      await uniqueAsValidation('uq_question_event_identifier', 'identifier', QUESTION_IDENTIFIER_TAKEN, () =>
        em.save(question),
      );
      const items = [...new Set(input.items)];
      await this.setItems(em, question.id, items);
      const options = inline.map((o, i) =>
        em.create(QuestionOption, {
          questionId: question.id,
          eventId: event.id,
          identifier: prepared.identifiers[i],
          answer: toI18n(o.answer),
          position: o.position ?? 0,
        }),
      );
      if (options.length > 0) await em.save(options);
      await this.log(em, principal, event, question.id, 'pretix.event.question.added', { ...body });
      return toQuestionJson(question, items, options);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); rules are
   * checked on the merged data. A null or omitted `identifier` keeps the current one. Logs
   * `pretix.event.question.changed` only when the wire object changed.
   * @throws ValidationFailed when `options` is sent (any value), or on invalid data
   * @throws NotFound for an id that is not a question of this event
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<ReplaceQuestionDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<QuestionJson> {
    return this.db.transaction(async (em) => {
      await this.lockEvent(em, event.id);
      const question = await this.findQuestion(em, event, id, true);
      if (body.options !== undefined) throw ValidationFailed.nonField(OPTIONS_NOT_UPDATABLE);
      const { options: _options, dependency_value: legacy, ...rest } = body;
      const related = await this.queries.relatedOf(em, question.id, this.related());
      const storedOptions = related.options;
      const before = toQuestionJson(question, related.items, storedOptions);
      const base: QuestionInput = mode === 'patch' ? before : ({ ...QUESTION_DEFAULTS } as QuestionInput);
      const input = this.resolveInput(rest, legacy, base);
      (await validateQuestion(this.queries, em, event, input, question, valuesKey(legacy))).throwIfAny();

      const items = [...new Set(input.items)].sort((a, b) => a - b);
      this.apply(question, input, input.identifier ?? question.identifier);
      const after = toQuestionJson(question, items, storedOptions);
      if (!isDeepStrictEqual(before, after)) {
        await uniqueAsValidation(
          'uq_question_event_identifier',
          'identifier',
          QUESTION_IDENTIFIER_TAKEN,
          () => em.save(question),
        );
        if (!isDeepStrictEqual(before.items, after.items)) await this.setItems(em, question.id, items);
        await this.log(em, principal, event, question.id, 'pretix.event.question.changed', { ...body });
      }
      return after;
    });
  }

  /**
   * Deletes a question with its options. Questions depending on it lose their dependency (question null,
   * values `[]`, each logged as `pretix.event.question.changed`). Logs `pretix.event.question.deleted`.
   * @throws NotFound for an id that is not a question of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      await this.lockEvent(em, event.id);
      const question = await this.findQuestion(em, event, id, true);
      const dependents = await this.queries.clearDependents(em, event.id, question.id);
      for (const dependent of dependents) {
        await this.log(em, principal, event, Number(dependent.id), 'pretix.event.question.changed', {
          dependency_question: null,
          dependency_values: [],
        });
      }
      await this.log(em, principal, event, question.id, 'pretix.event.question.deleted', {});
      await em.delete(Question, { id: question.id, eventId: event.id });
    });
  }

  // ---- shared with the options service -------------------------------------------------------------------

  /**
   * Serialises question and option writes of one event until the transaction ends (dependency chains and
   * identifiers are checked against a stable state).
   */
  async lockEvent(em: EntityManager, eventId: number): Promise<void> {
    await this.queries.lockEvent(em, eventId);
  }

  /**
   * The question `id` of the event.
   * @throws NotFound when it is not a question of this event
   */
  async findQuestion(em: EntityManager, event: Event, id: number, lock: boolean): Promise<Question> {
    return findOrNotFound(em, Question, { id, eventId: event.id }, lock);
  }

  /**
   * The question `id` of the event as the parent of `E/questions/{question}/options/`.
   * @throws ParentNotFound (403) when it is not a question of this event (spec: a missing parent is 403)
   */
  async findParentQuestion(em: EntityManager, event: Event, id: number, lock: boolean): Promise<Question> {
    return findParentOr403(em, Question, { id, eventId: event.id }, lock);
  }

  /** Whether an option of the event other than `exceptId` has this identifier. */
  async optionIdentifierUsed(
    em: EntityManager,
    eventId: number,
    identifier: string,
    exceptId: number | null,
  ): Promise<boolean> {
    return this.queries.optionIdentifierUsed(em, eventId, identifier, exceptId ?? 0);
  }

  /**
   * A fresh random identifier (8 characters `A-Z0-9`) not used in the event's questions or options (per
   * `table`) nor in `taken`.
   */
  async newIdentifier(
    em: EntityManager,
    table: IdentifierTable,
    eventId: number,
    taken: ReadonlySet<string> = new Set(),
  ): Promise<string> {
    for (;;) {
      const candidate = randomIdentifier();
      if (taken.has(candidate)) continue;
      if (!(await this.queries.identifierUsed(em, table, eventId, candidate))) return candidate;
    }
  }

  /**
   * Follows an option's identifier change in the `dependency_values` of questions depending on its question:
   * `to` replaces `from`, or `from` is removed when `to` is null (option deleted). Each changed question is
   * logged as `pretix.event.question.changed`.
   */
  async followOptionIdentifier(
    em: EntityManager,
    principal: Principal,
    event: Event,
    questionId: number,
    from: string,
    to: string | null,
  ): Promise<void> {
    const changed = await this.queries.followOptionIdentifier(em, event.id, questionId, from, to);
    for (const row of changed) {
      await this.log(em, principal, event, Number(row.id), 'pretix.event.question.changed', {
        dependency_values: row.dependency_values,
      });
    }
  }

  /** Writes an audit entry on content type `question` (options are logged on their question, compat §5). */
  async log(
    em: EntityManager,
    principal: Principal,
    event: Event,
    questionId: number,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: QUESTION_CONTENT_TYPE,
      objectId: questionId,
      action,
      data,
    });
  }

  // ---- internals -------------------------------------------------------------------------------------------

  private relatedSpec?: RelatedSpec<QuestionRelated>;

  /**
   * Item ids and options of a question, as subqueries of the question's own statement (style.md "Data access").
   */
  private related(): RelatedSpec<QuestionRelated> {
    return (this.relatedSpec ??= this.queries.related(this.db));
  }

  /**
   * Body over base; the legacy `dependency_value` folded into `dependency_values`; without a dependency
   * question the values are cleared (they have no meaning then).
   */
  private resolveInput(
    data: Partial<QuestionInput>,
    legacy: string | null | undefined,
    base: QuestionInput,
  ): QuestionInput {
    const values = effectiveDependencyValues(data.dependency_values, legacy);
    const input = mergeInput({ ...data, dependency_values: values }, base);
    input.dependency_values = input.dependency_question === null ? [] : [...new Set(input.dependency_values)];
    return input;
  }

  /**
   * Identifiers for inline options: given ones must be unique in the event and within the list (a repeat is
   * an error at its position), missing ones are generated. Errors are aligned with the list (`{}` for fine
   * entries) or null when there are none.
   */
  private async prepareInlineOptions(
    em: EntityManager,
    eventId: number,
    options: CreateQuestionOptionDto[],
  ): Promise<{ identifiers: string[]; errors: FieldErrors[] | null }> {
    const given = options.map((o) => o.identifier ?? null);
    const explicit = [...new Set(given.filter((x): x is string => x !== null))];
    const used = new Set<string>();
    if (explicit.length > 0) {
      const rows = await this.queries.usedOptionIdentifiers(em, eventId, explicit);
      for (const row of rows) used.add(row.identifier);
    }
    const seen = new Set<string>();
    let failed = false;
    const errors = given.map((identifier): FieldErrors => {
      if (identifier === null) return {};
      const problem = used.has(identifier) || seen.has(identifier);
      seen.add(identifier);
      if (!problem) return {};
      failed = true;
      return { identifier: [optionIdentifierTaken(identifier)] };
    });
    if (failed) return { identifiers: [], errors };
    const taken = new Set(explicit);
    const identifiers: string[] = [];
    for (const identifier of given) {
      const value = identifier ?? (await this.newIdentifier(em, 'question_option', eventId, taken));
      taken.add(value);
      identifiers.push(value);
    }
    return { identifiers, errors: null };
  }

  /** Replaces the item assignments of a question (ids already checked to be items of the event). */
  private async setItems(em: EntityManager, questionId: number, items: number[]): Promise<void> {
    await this.queries.setItems(em, questionId, items);
  }

  /** Writes the merged input onto the entity. */
  private apply(question: Question, input: QuestionInput, identifier: string): void {
    question.question = toI18n(input.question);
    question.helpText = toI18n(input.help_text);
    question.type = input.type;
    question.required = input.required;
    question.position = input.position;
    question.identifier = identifier;
    question.askDuringCheckin = input.ask_during_checkin;
    question.showDuringCheckin = input.show_during_checkin;
    question.hidden = input.hidden;
    question.printOnInvoice = input.print_on_invoice;
    question.validNumberMin = decimal6OrNull(input.valid_number_min);
    question.validNumberMax = decimal6OrNull(input.valid_number_max);
    question.validDateMin = input.valid_date_min;
    question.validDateMax = input.valid_date_max;
    question.validDatetimeMin = parseDateTimeOrNull(input.valid_datetime_min);
    question.validDatetimeMax = parseDateTimeOrNull(input.valid_datetime_max);
    question.validFilePortrait = input.valid_file_portrait;
    question.validStringLengthMin = input.valid_string_length_min;
    question.validStringLengthMax = input.valid_string_length_max;
    question.dependencyQuestionId = input.dependency_question;
    question.dependencyValues = [...input.dependency_values];
  }
}

/** The field name dependency value errors are reported under. */
function valuesKey(legacy: string | null | undefined): ValuesKey {
  return legacy !== undefined && legacy !== null ? 'dependency_value' : 'dependency_values';
}
