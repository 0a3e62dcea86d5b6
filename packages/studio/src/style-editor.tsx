import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from './context.js';
import type { MessageKey } from './i18n.js';
import { pointer, type ShownError } from './messages.js';

export interface Pair {
  id: number;
  key: string;
  value: string;
}

let nextId = 1;
export const pairsOf = (map: Record<string, string>): Pair[] =>
  Object.entries(map).map(([key, value]) => ({ id: nextId++, key, value }));
export const emptyPair = (): Pair => ({ id: nextId++, key: '', value: '' });

/** Rows that break the StyleMap rules of the API (key 1-64, value ≤ 256, ≤ 32 pairs, keys unique). */
export function pairProblems(pairs: Pair[]): Map<number, { field: 'key' | 'value'; reason: MessageKey }> {
  const problems = new Map<number, { field: 'key' | 'value'; reason: MessageKey }>();
  const seen = new Set<string>();
  pairs.forEach((pair, index) => {
    if (pair.key === '' && pair.value === '') return;
    if (pair.key === '') problems.set(pair.id, { field: 'key', reason: 'keyRequired' });
    else if ([...pair.key].length > 64) problems.set(pair.id, { field: 'key', reason: 'keyTooLong' });
    else if (seen.has(pair.key)) problems.set(pair.id, { field: 'key', reason: 'keyDuplicate' });
    else if ([...pair.value].length > 256) problems.set(pair.id, { field: 'value', reason: 'valueTooLong' });
    else if (index >= 32) problems.set(pair.id, { field: 'key', reason: 'tooManyPairs' });
    seen.add(pair.key);
  });
  return problems;
}

/** The pairs as the API's `kvPairs` (empty rows dropped). */
export function mapOf(pairs: Pair[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) if (pair.key !== '' || pair.value !== '') map[pair.key] = pair.value;
  return map;
}

/**
 * The key/value editor. `apiError` is the API's last refusal as the form shows it: a message the
 * server gave for a key (`data.errors` at `<base>/<key>`) is shown in that row; without field
 * messages (older servers) the envelope's message goes beside the row(s) the StyleMap rules point
 * at, else under the editor.
 */
export function StyleEditor(props: {
  pairs: Pair[];
  onChange: (pairs: Pair[]) => void;
  apiError?: ShownError | undefined;
  /** The JSON pointer of the map in the request body: `/kvPairs` (style PUT) or `/style` (project create). */
  base: string;
  idPrefix: string;
}) {
  const { t } = useStudio();
  const { pairs, onChange, apiError, idPrefix, base } = props;
  const [touched, setTouched] = useState(false);
  // "+ Add a pair" moves focus to the new row's key, so the first key typed lands in it.
  const [focusId, setFocusId] = useState<number | null>(null);
  const keyInputs = useRef(new Map<number, HTMLInputElement>());
  // A layout effect: it runs in the same turn as the render, before the next key event is handled
  // (a plain effect waits for a frame, and keys typed at once went to the button).
  useLayoutEffect(() => {
    if (focusId === null) return;
    keyInputs.current.get(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);
  const problems = pairProblems(pairs);
  const update = (id: number, patch: Partial<Pair>) => {
    setTouched(true);
    onChange(pairs.map((p) => (p.id === id ? { ...p, ...patch } : p)));
  };
  const envelope = apiError?.general.split(' — ')[0];
  const serverNamed = pairs.some(
    (pair) => pair.key !== '' && apiError?.at(pointer(...base.slice(1).split('/'), pair.key)),
  );
  const showLocal = touched || apiError !== undefined;
  return (
    <fieldset class="style-editor">
      <legend>{t('style')}</legend>
      <p class="hint">{t('styleHint')}</p>
      <div class="kv-head" aria-hidden="true">
        <span>{t('styleKey')}</span>
        <span>{t('styleValue')}</span>
      </div>
      {pairs.map((pair, index) => {
        const fromServer =
          pair.key === '' ? undefined : apiError?.at(pointer(...base.slice(1).split('/'), pair.key));
        const problem = showLocal ? problems.get(pair.id) : undefined;
        const errorId = `${idPrefix}-err-${pair.id}`;
        const keyInvalid = problem?.field === 'key';
        const valueInvalid = problem?.field === 'value' || fromServer !== undefined;
        const described = problem || fromServer ? errorId : undefined;
        return (
          <div class="kv-row" key={pair.id} data-testid="kv-row">
            <input
              ref={(el) => {
                if (el) keyInputs.current.set(pair.id, el);
                else keyInputs.current.delete(pair.id);
              }}
              aria-label={`${t('styleKey')} ${index + 1}`}
              value={pair.key}
              aria-invalid={keyInvalid}
              aria-describedby={described}
              onInput={(e) => update(pair.id, { key: (e.currentTarget as HTMLInputElement).value })}
            />
            <input
              aria-label={`${t('styleValue')} ${index + 1}`}
              value={pair.value}
              aria-invalid={valueInvalid}
              aria-describedby={described}
              onInput={(e) => update(pair.id, { value: (e.currentTarget as HTMLInputElement).value })}
            />
            <button
              type="button"
              class="icon"
              aria-label={`${t('removePair')} ${index + 1}`}
              onClick={() => onChange(pairs.filter((p) => p.id !== pair.id))}
            >
              ×
            </button>
            {fromServer !== undefined ? (
              <p class="field-error" id={errorId} data-testid="field-error">
                {fromServer}
              </p>
            ) : (
              problem && (
                <p class="field-error" id={errorId} data-testid="field-error">
                  {envelope && !serverNamed ? `${envelope}：` : ''}
                  {t(problem.reason)}
                </p>
              )
            )}
          </div>
        );
      })}
      {apiError !== undefined && (serverNamed || problems.size === 0) && (
        <p class="field-error" role="alert">
          {apiError.general}
        </p>
      )}
      <button
        type="button"
        class="ghost"
        onClick={() => {
          const added = emptyPair();
          onChange([...pairs, added]);
          setFocusId(added.id);
        }}
      >
        + {t('addPair')}
      </button>
    </fieldset>
  );
}
