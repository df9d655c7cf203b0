import { Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { toI18n } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import type { CreateQuestionOptionDto } from './question-option.dto';
import { QuestionOption } from './question-option.entity';
import { QuestionOptionJson, toQuestionOptionJson } from './question-option.presenter';
import { QuestionOptionQueries } from './question-option.queries';
import { optionIdentifierTaken, QuestionsService } from './questions.service';

type OptionInput = Complete<CreateQuestionOptionDto>;

/** Defaults of optional option fields; `identifier: null` means generated (create) or kept (update). */
const OPTION_DEFAULTS: Omit<OptionInput, 'answer'> = { identifier: null, position: 0 };

const UNIQUE_INDEX = 'uq_question_option_event_identifier';

/**
 * Options of one question: list, detail, create, update, delete (compat §3.16, spec "Question option"). The
 * question must belong to the event in the URL (404 otherwise). Writes are logged on the question (content type
 * `question`, object = the question, option id in `data.id`) so that the question list's `Last-Modified`
 * follows option changes.
 */
@Injectable()
export class QuestionOptionsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly questions: QuestionsService,
    private readonly queries: QuestionOptionQueries,
  ) {}

  /**
   * One page of the question's options; ordering `id`, `position` (default `position,id`). The spec's `active`
   * filter is validated as a boolean (400 otherwise) and has no effect: options have no active state.
   * @throws ParentNotFound (403) when the question is not one of this event
   */
  async list(
    event: Event,
    questionId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<QuestionOptionJson>> {
    await this.questions.findParentQuestion(this.db, event, questionId, false);
    filters.bool('active');
    return this.queries.page(this.db, event.id, questionId, filters, page, (rows) =>
      rows.map(toQuestionOptionJson),
    );
  }

  /** @throws ParentNotFound (403) for an unknown question of the event; NotFound for an option not of that question */
  async get(event: Event, questionId: number, id: number): Promise<QuestionOptionJson> {
    await this.questions.findParentQuestion(this.db, event, questionId, false);
    return toQuestionOptionJson(await this.load(this.db, event, questionId, id, false));
  }

  /**
   * Creates an option; a null or omitted identifier is generated. Logs `pretix.event.question.option.added`.
   * @throws ValidationFailed `{"identifier": ["The identifier \"X\" is already used for a different option."]}`
   * @throws ParentNotFound (403) when the question is not one of this event
   */
  async create(
    event: Event,
    questionId: number,
    principal: Principal,
    body: CreateQuestionOptionDto,
  ): Promise<QuestionOptionJson> {
    const input = mergeInput(body, { ...OPTION_DEFAULTS } as OptionInput);
    return this.db.transaction(async (em) => {
      await this.questions.lockEvent(em, event.id);
      const question = await this.questions.findParentQuestion(em, event, questionId, true);
      if (input.identifier !== null) await this.checkIdentifier(em, event, input.identifier, null);
      const identifier =
        input.identifier ?? (await this.questions.newIdentifier(em, 'question_option', event.id));
      const option = em.create(QuestionOption, {
        questionId: question.id,
        eventId: event.id,
        identifier,
        answer: toI18n(input.answer),
        position: input.position,
      });
      await this.save(em, option);
      await this.questions.log(em, principal, event, question.id, 'pretix.event.question.option.added', {
        ...body,
        id: option.id,
      });
      return toQuestionOptionJson(option);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`). A null or omitted identifier keeps the
   * current one; a changed identifier is followed in the `dependency_values` of questions depending on this
   * question. Logs `pretix.event.question.option.changed` only when the option changed.
   * @throws ValidationFailed when the identifier is used by another option of the event
   * @throws ParentNotFound (403) for an unknown question of the event; NotFound for an option not of that question
   */
  async update(
    event: Event,
    questionId: number,
    id: number,
    principal: Principal,
    body: Partial<CreateQuestionOptionDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<QuestionOptionJson> {
    return this.db.transaction(async (em) => {
      await this.questions.lockEvent(em, event.id);
      await this.questions.findParentQuestion(em, event, questionId, true);
      const option = await this.load(em, event, questionId, id, true);
      const before = toQuestionOptionJson(option);
      const base: OptionInput = mode === 'patch' ? before : ({ ...OPTION_DEFAULTS } as OptionInput);
      const input = mergeInput(body, base);
      const identifier = input.identifier ?? option.identifier;
      if (identifier !== option.identifier) await this.checkIdentifier(em, event, identifier, option.id);
      option.identifier = identifier;
      option.answer = toI18n(input.answer);
      option.position = input.position;
      const after = toQuestionOptionJson(option);
      if (!isDeepStrictEqual(before, after)) {
        await this.save(em, option);
        if (before.identifier !== after.identifier) {
          await this.questions.followOptionIdentifier(
            em,
            principal,
            event,
            questionId,
            before.identifier,
            after.identifier,
          );
        }
        await this.questions.log(em, principal, event, questionId, 'pretix.event.question.option.changed', {
          ...body,
          id: option.id,
        });
      }
      return after;
    });
  }

  /**
   * Deletes an option; its identifier is removed from the `dependency_values` of questions depending on this
   * question. Logs `pretix.event.question.option.deleted`.
   * @throws ParentNotFound (403) for an unknown question of the event; NotFound for an option not of that question
   */
  async delete(event: Event, questionId: number, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      await this.questions.lockEvent(em, event.id);
      await this.questions.findParentQuestion(em, event, questionId, true);
      const option = await this.load(em, event, questionId, id, true);
      await this.questions.followOptionIdentifier(em, principal, event, questionId, option.identifier, null);
      await this.questions.log(em, principal, event, questionId, 'pretix.event.question.option.deleted', {
        id: option.id,
      });
      await em.delete(QuestionOption, { id: option.id, questionId });
    });
  }

  private async load(
    em: EntityManager,
    event: Event,
    questionId: number,
    id: number,
    lock: boolean,
  ): Promise<QuestionOption> {
    return findOrNotFound(em, QuestionOption, { id, questionId, eventId: event.id }, lock);
  }

  /** @throws ValidationFailed when another option of the event has the identifier */
  private async checkIdentifier(
    em: EntityManager,
    event: Event,
    identifier: string,
    exceptId: number | null,
  ): Promise<void> {
    if (await this.questions.optionIdentifierUsed(em, event.id, identifier, exceptId)) {
      throw ValidationFailed.field('identifier', optionIdentifierTaken(identifier));
    }
  }

  /** Saves the option; a unique-index race on the identifier becomes the same 400 as the check. */
  private async save(em: EntityManager, option: QuestionOption): Promise<void> {
    await uniqueAsValidation(UNIQUE_INDEX, 'identifier', optionIdentifierTaken(option.identifier), () =>
      em.save(option),
    );
  }
}
