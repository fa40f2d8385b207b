// The timeline page. A node's panel (or a replayed recording's) has two panes in tabs: the session
// (sessionPane.ts) and the what-if simulator (whatIfPane.ts); the what-if-only panel has just the
// simulator. The page keeps its node (or recording) with setState so the serializer can restore it.

import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import 'uplot/dist/uPlot.min.css';
import './timeline.css';
import { checkWhatIfParams } from '../../src/core/timeline/whatIf/whatIfParams';
import { PROTOCOL_VERSION, type HostToWebview } from '../../src/shared/timeline/panelProtocol';
import { SessionPane } from './sessionPane';
import { setStrings, t } from './strings';
import { loadState, nextRequestId, onHostMessage, post, saveState } from './vscodeApi';
import { buildWhatIf, onWhatIfError, onWhatIfTimeline, showError } from './whatIfPane';

let sessionPane: SessionPane | undefined;

function tabs(session: HTMLElement, whatIf: HTMLElement[], selected: number): HTMLElement {
  const box = document.createElement('vscode-tabs');
  box.className = 'panes';
  box.setAttribute('selected-index', String(selected));
  // vscode-tabs gives its headers ids of its own: ours go in data-pane.
  const header = (pane: string, text: string): HTMLElement => {
    const h = document.createElement('vscode-tab-header');
    h.dataset['pane'] = pane;
    h.setAttribute('slot', 'header');
    h.textContent = text;
    return h;
  };
  const panel = (...children: HTMLElement[]): HTMLElement => {
    const p = document.createElement('vscode-tab-panel');
    p.append(...children);
    return p;
  };
  box.append(header('timeline', t('tab.timeline')), panel(session), header('whatIf', t('tab.whatIf')), panel(...whatIf));
  box.addEventListener('vsc-tabs-select', (event) => {
    const index = (event as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
    saveState({ ...loadState(), pane: index === 1 ? 'whatIf' : 'timeline' });
  });
  return box;
}

function start(message: Extract<HostToWebview, { type: 'init' }>): void {
  setStrings(message.strings);
  const state = loadState();
  const saved = checkWhatIfParams(state.params);
  const whatIf = buildWhatIf(saved.ok ? saved.params : message.params);
  const app = document.getElementById('app')!;
  if (message.target === null && message.recording === null) {
    saveState({ ...state, target: null, recording: null });
    app.replaceChildren(...whatIf.elements);
  } else {
    // Kept for the serializer: after a reload the host reopens the same node or recording.
    saveState({ ...state, target: message.target, recording: message.recording });
    sessionPane = new SessionPane({
      t,
      request: (m) => {
        const requestId = nextRequestId();
        post({ ...m, requestId });
        return requestId;
      },
    });
    app.replaceChildren(tabs(sessionPane.root, whatIf.elements, state.pane === 'whatIf' ? 1 : 0));
  }
  // The page is rebuilt whenever VS Code shows it again; the chart comes back without a click.
  if (state.ran === true && saved.ok) whatIf.rerun();
}

onHostMessage((message) => {
  switch (message.type) {
    case 'init':
      start(message);
      break;
    case 'timeline':
      onWhatIfTimeline(message.requestId, message.data);
      break;
    case 'session':
      sessionPane?.show(message);
      break;
    case 'sessionDelta':
      sessionPane?.applyDelta(message);
      break;
    case 'sessionReplaced':
      sessionPane?.replace(message);
      break;
    case 'sessionNow':
      sessionPane?.judged(message);
      break;
    case 'feedState':
      sessionPane?.setFeed(message.feed, message.message);
      break;
    case 'exported':
      sessionPane?.exported(message);
      break;
    case 'error':
      // requestId null: a message the host could not tie to a request; show it, it explains a silence.
      if (sessionPane?.error(message.requestId, message.message) === true) break;
      if (!onWhatIfError(message.requestId, message.message) && message.requestId === null) showError(message.message);
      break;
  }
});

post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
