import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequireOrganizerAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { filter, ListFilters } from '../../common/http/list-filters';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Organizer } from '../organizer.entity';
import { ExplainedSettingJson, OrganizerSettingsDto } from './organizer-settings.dto';
import { explainOrganizerSettings } from './organizer-settings.rules';
import { OrganizerSettingsService } from './organizer-settings.service';

/**
 * `O/settings/` (pretix `OrganizerSettingsView`): GET with organizer access (`?explain=true`: each key as
 * `{value, label, help_text, readonly}`), PATCH with `organizer.settings.general:write`; no PUT (405).
 */
@ApiTags('organizers')
@ApiExtraModels(ExplainedSettingJson)
@Controller('organizers/:organizer/settings')
export class OrganizerSettingsController {
  constructor(private readonly settings: OrganizerSettingsService) {}

  @Get()
  @RequireOrganizerAccess()
  @ListFilters({
    filters: {
      explain: filter.text('Present (e.g. `true`): each key as `{value, label, help_text, readonly}`.'),
    },
  })
  @ApiOkResponse({
    type: OrganizerSettingsDto,
    description: 'With `?explain=true`, each key is an `ExplainedSettingJson` instead of its value.',
  })
  async getOrganizerSettings(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
  ): Promise<Record<string, unknown>> {
    const values = await this.settings.get(organizer);
    return filters.raw('explain') !== undefined ? explainOrganizerSettings(values) : values;
  }

  @Patch()
  @RequirePermission('organizer.settings.general:write')
  @ApiOkResponse({ type: OrganizerSettingsDto })
  settingsOrganizerWithPatch(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: OrganizerSettingsDto,
  ): Promise<Record<string, unknown>> {
    return this.settings.update(organizer, principal, body);
  }
}
