import type { OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { WEBHOOK_ACTION_TYPES } from './action-types';
import { WEBHOOK_USER_AGENT } from './webhook-delivery.processor';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const base: Record<string, SchemaObject> = {
  notification_id: {
    type: 'integer',
    description: 'Id of the audit log entry that caused the notification.',
  },
  organizer: { type: 'string', description: 'Organizer slug.' },
  event: { type: 'string', description: 'Event slug.' },
};

const action: SchemaObject = {
  type: 'string',
  description:
    'The concrete log action (a webhook listening to a wildcard type such as `pretix.event.order.changed.*` ' +
    'gets e.g. `pretix.event.order.changed.item`).',
  example: 'pretix.event.order.paid',
};

/** Payload schemas a receiver gets (compat §5), by component name. */
const PAYLOADS: Record<string, SchemaObject> = {
  WebhookOrderPayload: {
    type: 'object',
    description: 'Order events: exactly these five keys. Fetch the order through the API afterwards.',
    required: ['notification_id', 'organizer', 'event', 'code', 'action'],
    properties: { ...base, code: { type: 'string', description: 'Order code.' }, action },
    additionalProperties: false,
  },
  WebhookCheckinPayload: {
    type: 'object',
    description: 'Check-in events (`pretix.event.checkin`, `pretix.event.checkin.reverted`).',
    required: [
      'notification_id',
      'organizer',
      'event',
      'code',
      'action',
      'orderposition_id',
      'orderposition_positionid',
      'checkin_list',
      'type',
      'first_checkin',
    ],
    properties: {
      ...base,
      code: { type: 'string', description: 'Order code.' },
      action,
      orderposition_id: { type: 'integer' },
      orderposition_positionid: { type: 'integer' },
      checkin_list: { type: 'integer' },
      type: { type: 'string', enum: ['entry', 'exit'] },
      first_checkin: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  WebhookObjectPayload: {
    type: 'object',
    description:
      'Event, sub-event, item and voucher events: the event slug and, depending on the action, the id of the ' +
      '`subevent`, `item` or `voucher`.',
    required: ['notification_id', 'organizer', 'event', 'action'],
    properties: {
      ...base,
      subevent: { type: 'integer' },
      item: { type: 'integer' },
      voucher: { type: 'integer' },
      action,
    },
    additionalProperties: false,
  },
  WebhookCustomerPayload: {
    type: 'object',
    description: 'Customer events (no event).',
    required: ['notification_id', 'organizer', 'customer', 'action'],
    properties: {
      notification_id: base.notification_id,
      organizer: base.organizer,
      customer: { type: 'string', description: 'Customer identifier.' },
      action,
    },
    additionalProperties: false,
  },
};

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/**
 * Adds what a webhook receiver gets to the document (OpenAPI 3.0, so as the `x-webhooks` extension in the shape
 * of 3.1's `webhooks`): one `POST` per kind of payload, the Standard Webhooks headers, the payload schemas
 * (components `Webhook*Payload`) and the answers that count (2xx; 410 disables the webhook).
 */
export function withWebhookDocs(document: OpenAPIObject): OpenAPIObject {
  const schemas = { ...(document.components?.schemas ?? {}), ...PAYLOADS };
  const parameters = [
    header(
      'webhook-id',
      'The change id (`chg_<notification_id>`): the same for every webhook, retry and redelivery of the change, and ' +
        'equal to the `id` of the change in `GET O/changes/` (de-duplicate on it).',
      'chg_81234',
    ),
    header('webhook-timestamp', 'Unix seconds of this attempt.', '1767225600'),
    header(
      'webhook-signature',
      '`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the base64-decoded part ' +
        'of the secret after `whsec_` (Standard Webhooks; verify with e.g. the `standardwebhooks` package).',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ),
    header('user-agent', 'Names the sending service.', WEBHOOK_USER_AGENT),
  ];
  const operation = (kind: string, schema: string, summary: string) => ({
    post: {
      operationId: `webhook_${kind}`,
      summary,
      description:
        `Sent as \`POST target_url\` with \`Content-Type: application/json\` for the action types: ` +
        `${WEBHOOK_ACTION_TYPES.join(', ')} (as configured on the webhook). Retried with exponential back-off for ` +
        'up to 3 days until a 2xx arrives within 30 s; redirects are not followed.',
      parameters,
      requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
      responses: {
        '2XX': { description: 'Delivered.' },
        '410': { description: 'Gone: the webhook is disabled, no further deliveries.' },
        default: { description: 'Any other answer (or none within 30 s) is retried.' },
      },
    },
  });
  return {
    ...document,
    components: { ...document.components, schemas },
    'x-webhooks': {
      order: operation('order', 'WebhookOrderPayload', 'Order notification'),
      checkin: operation('checkin', 'WebhookCheckinPayload', 'Check-in notification'),
      object: operation('object', 'WebhookObjectPayload', 'Event, sub-event, item or voucher notification'),
      customer: operation('customer', 'WebhookCustomerPayload', 'Customer notification'),
    },
  } as OpenAPIObject;
}
