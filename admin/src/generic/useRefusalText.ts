import { useTranslate } from 'react-admin';
import { errorMessage } from '../api/useFetch';

/** The text of a refused call, translated when it is a caption key. */
export function useRefusalText() {
  const translate = useTranslate();
  return (err: unknown) => {
    const m = errorMessage(err);
    return translate(m, { _: m });
  };
}
