/** Field and cross-field rules of questions that need the database (compat §3.15); split from the service. */
import type { EntityManager } from 'typeorm';
import { ErrorCollector, invalidPk } from '../../common/errors';
import type { Complete } from '../../common/persistence/write';
import type { Event } from '../../organizers/event.entity';
import {
  CHECKIN_UNSUPPORTED_TYPES,
  DEPENDENCY_TYPES,
  dependedOnTypeError,
  dependencyValuesError,
} from './question-rules';
import type { ReplaceQuestionDto } from './question.dto';
import type { Question } from './question.entity';
import type { DependencyQuestionRow, QuestionQueries } from './question.queries';

export const QUESTION_IDENTIFIER_TAKEN = 'This identifier is already used for a different question.';

/** The merged input a question write applies: every writable field, legacy and inline keys removed. */
export type QuestionInput = Complete<Omit<ReplaceQuestionDto, 'options' | 'dependency_value'>>;

/** Where a request sent the dependency values: the legacy field's errors are reported under its own name. */
export type ValuesKey = 'dependency_values' | 'dependency_value';

/**
 * Field and cross-field rules of compat §3.15 on the merged input. Field errors: `identifier` (taken),
 * `dependency_question` (self, unknown, wrong type), `dependency_values`/`dependency_value` (not matching the
 * dependency question), `type` (a question others depend on must keep its kind). Non-field errors: check-in
 * and dependency conflicts, cycles, unsupported check-in type, foreign items.
 * @param queries the statements (the caller's {@link QuestionQueries})
 * @param self the stored question on update, null on create
 */
export async function validateQuestion(
  queries: QuestionQueries,
  em: EntityManager,
  event: Event,
  input: QuestionInput,
  self: Question | null,
  valuesKey: ValuesKey,
): Promise<ErrorCollector> {
  const errors = new ErrorCollector();

  if (input.identifier !== null) {
    if (await queries.questionIdentifierTaken(em, event.id, input.identifier, self?.id ?? 0))
      errors.add('identifier', QUESTION_IDENTIFIER_TAKEN);
  }

  let dependency: DependencyQuestionRow | null = null;
  if (input.dependency_question !== null) {
    if (self && input.dependency_question === self.id) {
      errors.add('dependency_question', 'A question cannot depend on itself.');
    } else {
      const rows = await queries.dependencyQuestion(em, event.id, input.dependency_question);
      if (rows.length === 0) {
        errors.add('dependency_question', invalidPk(input.dependency_question));
      } else if (!DEPENDENCY_TYPES.includes(rows[0].type)) {
        errors.add(
          'dependency_question',
          'Question dependencies can only be set to boolean or choice questions.',
        );
      } else {
        dependency = rows[0];
      }
    }
  }

  if (dependency) {
    let conflict: string | null = null;
    if (input.ask_during_checkin) conflict = 'Dependencies are not supported during check-in.';
    else if (dependency.ask_during_checkin)
      conflict = 'Question cannot depend on a question asked during check-in.';
    else if (self && (await queries.chainReaches(em, dependency.id, self.id)))
      conflict = 'Circular dependency between questions detected.';
    if (conflict) {
      errors.addNonField(conflict);
    } else {
      const identifiers: { identifier: string }[] =
        dependency.type === 'B'
          ? []
          : await queries.optionIdentifiers(em, dependency.id);
      const problem = dependencyValuesError(
        dependency.type,
        input.dependency_values,
        identifiers.map((r) => r.identifier),
      );
      if (problem) errors.add(valuesKey, problem);
    }
  }

  if (input.ask_during_checkin && CHECKIN_UNSUPPORTED_TYPES.includes(input.type)) {
    errors.addNonField('This type of question cannot be asked during check-in.');
  }

  const wanted = [...new Set(input.items)];
  if (wanted.length > 0) {
    // Share-locked: a concurrent item delete waits until this write has committed.
    const found = await queries.itemsOfEventForWrite(em, event.id, wanted);
    if (found.length < wanted.length) errors.addNonField('One or more items do not belong to this event.');
  }

  if (self) {
    if (await queries.hasDependents(em, event.id, self.id)) {
      const typeProblem = dependedOnTypeError(self.type, input.type);
      if (typeProblem) errors.add('type', typeProblem);
      if (input.ask_during_checkin) {
        errors.addNonField('A question that other questions depend on cannot be asked during check-in.');
      }
    }
  }
  return errors;
}
