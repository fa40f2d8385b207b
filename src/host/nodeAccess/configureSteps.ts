// One step of a multi-step quick input: an input box or a quick pick with a Back button, resolving to the
// answer, "back" or "cancel". VS Code's showInputBox/showQuickPick have no Back button, hence the
// createInputBox/createQuickPick plumbing here.

import * as vscode from 'vscode';

export type StepResult<T> = { kind: 'value'; value: T } | { kind: 'back' } | { kind: 'cancel' };

export interface StepFrame {
  title: string;
  step: number;
  totalSteps: number;
  /** Offer Back (not on the first step). */
  back: boolean;
}

export interface InputStep extends StepFrame {
  prompt: string;
  placeholder?: string;
  value: string;
  /** An error message for the text, or undefined when it is acceptable. */
  validate: (text: string) => string | undefined;
}

export function inputStep(options: InputStep): Promise<StepResult<string>> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.step = options.step;
  box.totalSteps = options.totalSteps;
  box.prompt = options.prompt;
  box.placeholder = options.placeholder ?? '';
  box.value = options.value;
  box.ignoreFocusOut = true;
  if (options.back) box.buttons = [vscode.QuickInputButtons.Back];
  const check = (text: string): boolean => {
    const problem = options.validate(text);
    box.validationMessage = problem === undefined ? undefined : { message: problem, severity: vscode.InputBoxValidationSeverity.Error };
    return problem === undefined;
  };
  check(box.value);
  return settle<string>(box, (finish) => [
    box.onDidChangeValue((text) => void check(text)),
    box.onDidAccept(() => {
      if (check(box.value)) finish({ kind: 'value', value: box.value });
    }),
  ]);
}

export interface PickItem<T> extends vscode.QuickPickItem {
  value: T;
}

export interface PickStep<T> extends StepFrame {
  placeholder: string;
  items: readonly PickItem<T>[];
  /** The item to highlight first (e.g. the current setting). */
  active?: T;
}

export function pickStep<T>(options: PickStep<T>): Promise<StepResult<T>> {
  const pick = vscode.window.createQuickPick<PickItem<T>>();
  pick.title = options.title;
  pick.step = options.step;
  pick.totalSteps = options.totalSteps;
  pick.placeholder = options.placeholder;
  pick.items = options.items;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  const active = options.items.find((i) => i.value === options.active);
  if (active !== undefined) pick.activeItems = [active];
  if (options.back) pick.buttons = [vscode.QuickInputButtons.Back];
  return settle<T>(pick, (finish) => [
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      if (chosen !== undefined) finish({ kind: 'value', value: chosen.value });
    }),
  ]);
}

/** Shows `input`, resolves once with the first outcome, and disposes everything. */
function settle<T>(input: vscode.QuickInput & { onDidTriggerButton: vscode.Event<vscode.QuickInputButton> }, wire: (finish: (r: StepResult<T>) => void) => vscode.Disposable[]): Promise<StepResult<T>> {
  return new Promise((resolve) => {
    let done = false;
    const disposables: vscode.Disposable[] = [];
    const finish = (result: StepResult<T>): void => {
      if (done) return;
      done = true;
      resolve(result);
      for (const d of disposables) d.dispose();
      input.dispose();
    };
    disposables.push(
      ...wire(finish),
      input.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) finish({ kind: 'back' });
      }),
      input.onDidHide(() => finish({ kind: 'cancel' })),
    );
    input.show();
  });
}
