import { ApiInt } from '../common/http/api-schemas';
import type { Gate } from './gate.entity';

/** Wire form of a gate (pretix `GateSerializer`: id, name, identifier). */
export class GateJson {
  @ApiInt()
  id!: number;
  name!: string;
  identifier!: string;
}

export function toGateJson(gate: Gate): GateJson {
  return { id: gate.id, name: gate.name, identifier: gate.identifier };
}
