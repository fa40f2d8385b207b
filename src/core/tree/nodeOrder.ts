// Unhealthy first (by verdict rank), then by name with numbers compared as numbers (node-2 < node-10).
// A node only moves when its verdict changes, so rows do not jump around while the user reads them.

import type { NodeClassification } from '../classify/types';
import { naturalCompare } from '../util/naturalCompare';
import { verdictRank } from './verdictPresentation';

export function compareNodes(a: NodeClassification, b: NodeClassification): number {
  return verdictRank(a.verdict) - verdictRank(b.verdict) || naturalCompare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
