import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Nullable, rule } from '../../common/validation/fields';
import { ORGANIZER_SETTINGS } from './organizer-settings.schema';

/**
 * Body of `PATCH O/settings/` and the answer of `GET O/settings/`: one optional, nullable property per key of
 * {@link ORGANIZER_SETTINGS} (null resets the key to its default). Unknown keys are ignored, as pretix does.
 * The properties are declared from the schema table, so the table is the one place that lists them.
 */
export class OrganizerSettingsDto {
  [key: string]: unknown;
}

for (const [key, spec] of Object.entries(ORGANIZER_SETTINGS)) {
  applyDecorators(
    Nullable(),
    rule(`setting_${key}`, (v) => (v === undefined || v === null ? null : spec.check(v))),
    ApiProperty({
      ...spec.schema,
      required: false,
      description: spec.help_text ?? spec.label,
    } as ApiPropertyOptions),
  )(OrganizerSettingsDto.prototype, key);
}

/** One key of the `?explain=true` answer. */
export class ExplainedSettingJson {
  @ApiProperty({
    description: 'The current value (as in the plain answer).',
    nullable: true,
    oneOf: [
      { type: 'string' },
      { type: 'integer' },
      { type: 'boolean' },
      { type: 'array', items: { type: 'string' } },
      { type: 'object', additionalProperties: { type: 'string' } },
    ],
  })
  value!: unknown;
  label!: string;
  @ApiProperty({ type: 'string', nullable: true })
  help_text!: string | null;
  readonly!: boolean;
}
