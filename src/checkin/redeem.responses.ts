import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { QuestionJson } from '../catalogue/questions/question.presenter';
import { ApiEnum } from '../common/http/api-schemas';
import { CheckinPositionJson } from '../orders/checkin-positions';
import { REDEEM_REASONS } from './redeem.rules';
import { RedeemListJson, RedeemOkJson } from './redeem.service';

/** 400 (or 404 with reason `invalid`) answer of a refused redeem (compat §3.21). */
export class RedeemErrorJson {
  @ApiEnum(['error'])
  status!: 'error';
  @ApiEnum(REDEEM_REASONS)
  reason!: string;
  /** Human explanation (what a scanner shows). */
  reason_explanation!: string | null;
  require_attention!: boolean;
  /** The ticket scanned (absent for an unknown secret). */
  position?: CheckinPositionJson;
  list!: RedeemListJson;
}

/** 400 answer when check-in questions are unanswered (compat §3.21 `incomplete`); nothing is stored. */
export class RedeemIncompleteJson {
  @ApiEnum(['incomplete'])
  status!: 'incomplete';
  require_attention!: boolean;
  position!: CheckinPositionJson;
  /** The product's check-in questions still without a (valid) answer. */
  questions!: QuestionJson[];
  list!: RedeemListJson;
}

const ref = (model: { name: string }) => ({ $ref: getSchemaPath(model.name) });
const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The responses of a redeem (event-level and RPC): 201 {@link RedeemOkJson}; 400 a refusal
 * ({@link RedeemErrorJson}), unanswered questions ({@link RedeemIncompleteJson}) or invalid input; 404 an
 * unknown ticket ({@link RedeemErrorJson} with reason `invalid`) or an unknown list.
 */
export function ApiRedeemResponses(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(RedeemErrorJson, RedeemIncompleteJson),
    ApiCreatedResponse({ type: RedeemOkJson, description: 'Admitted (`status` `ok`).' }),
    ApiBadRequestResponse({
      description:
        'Refused (`status` `error` with a `reason`), check-in questions to answer (`incomplete`), or invalid input.',
      content: {
        'application/json': {
          schema: { oneOf: [ref(RedeemErrorJson), ref(RedeemIncompleteJson), component('ValidationError')] },
        },
      },
    }),
    ApiNotFoundResponse({
      description: 'Unknown ticket (`status` `error`, `reason` `invalid`; nothing stored) or unknown list.',
      content: {
        'application/json': { schema: { oneOf: [ref(RedeemErrorJson), component('ErrorDetail')] } },
      },
    }),
  );
}
