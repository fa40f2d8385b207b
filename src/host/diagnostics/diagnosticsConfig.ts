// Reads the raw plegDoctor.diagnostics.* values for the pure validator (diagnosticsSettings.ts).

import * as vscode from 'vscode';
import { DIAGNOSTICS_SECTION, DiagnosticsKeys, validateDiagnosticsConfig, type DiagnosticsConfig, type DiagnosticsSettingsProblem } from './diagnosticsSettings';

export function readDiagnosticsConfig(): { config: DiagnosticsConfig; problems: DiagnosticsSettingsProblem[] } {
  const section = vscode.workspace.getConfiguration(DIAGNOSTICS_SECTION);
  const raw: Record<string, unknown> = {};
  for (const key of Object.values(DiagnosticsKeys)) raw[key] = section.get<unknown>(key);
  return validateDiagnosticsConfig(raw);
}
