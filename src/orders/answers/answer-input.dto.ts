import {
  IsInteger,
  IsIntList,
  IsStr,
  MaxItems,
  Nullable,
  Optional,
  Required,
} from '../../common/validation/fields';
import { LIMITS } from '../../config/limits';

/** One answer as sent for an order or cart position (spec "Cart position" `answers`; compat §4.4). */
export class AnswerInputDto {
  /** Question id. */
  @Required()
  @IsInteger({ min: 1 })
  question!: number;

  /** The answer text; for choice questions it is derived from the options. */
  @Optional()
  @IsStr({ max: 10000 })
  answer?: string;

  /** Option ids (choice questions only), at most `LIMITS.optionsPerAnswer`. */
  @Nullable()
  @IsIntList()
  @MaxItems(LIMITS.optionsPerAnswer)
  options?: number[];
}
