import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { RedeemErrorJson, RedeemIncompleteJson, RedeemOkJson } from './redeem.presenter';

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
