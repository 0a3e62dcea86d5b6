import { useEffect, useState } from 'preact/hooks';
import { useStudio } from './context.js';

type CharacterModule = typeof import('./character.js');
let loading: Promise<CharacterModule> | undefined;

/**
 * The character pages (issue #40) load when first shown: they are not part of the first load of
 * the studio (about 7.7 KB gzip of script kept out of it).
 */
function useCharacterModule(): CharacterModule | null {
  const [module, setModule] = useState<CharacterModule | null>(null);
  useEffect(() => {
    let live = true;
    loading ??= import('./character.js');
    void loading.then((loaded) => live && setModule(loaded));
    return () => {
      live = false;
    };
  }, []);
  return module;
}

export function CharactersPanel(props: { projectId: string }) {
  const { t } = useStudio();
  const module = useCharacterModule();
  return module ? <module.CharactersPanel {...props} /> : <p role="status">{t('loading')}</p>;
}

export function CharacterPage(props: { projectId: string; characterId: string }) {
  const { t } = useStudio();
  const module = useCharacterModule();
  return module ? <module.CharacterPage {...props} /> : <p role="status">{t('loading')}</p>;
}
