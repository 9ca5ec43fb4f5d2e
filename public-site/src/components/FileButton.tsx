import type { RefObject } from 'react';
import { useI18n } from '../i18n';
import { Icon } from './ui';

/**
 * A file input that reads in the page's language (docs/decisions/0085): the browser's own button
 * says "Choose File" / "No file chosen" in the browser's language whatever the page's. The native
 * input stays (its label, name and keyboard focus, the file chooser it opens) but is hidden from
 * sight; in its place a button with the page's words and the chosen file's name. The focus ring of
 * the hidden input shows on the button.
 */
export function FileButton({
  id,
  name,
  inputRef,
  accept,
  multiple,
  files,
  onFiles,
  invalid,
  describedBy,
}: {
  id: string;
  name: string;
  inputRef: RefObject<HTMLInputElement | null>;
  accept?: string;
  multiple?: boolean;
  /** the files chosen, shown by name */
  files: File[];
  onFiles: (files: File[]) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { t } = useI18n();
  const chosenId = `${id}-chosen`;
  const chosen = files.length === 0 ? t('file.none') : files.length === 1 ? files[0].name : t('file.chosen_n', { n: files.length });
  return (
    <div className="file-field">
      <input
        ref={inputRef}
        id={id}
        name={name}
        type="file"
        className="file-input visually-hidden"
        accept={accept}
        multiple={multiple}
        onChange={(e) => onFiles([...(e.target.files ?? [])])}
        aria-invalid={invalid}
        aria-describedby={[chosenId, describedBy].filter(Boolean).join(' ')}
      />
      {/* for the mouse: the input above is what the keyboard and screen readers use */}
      <span className="btn file-button" aria-hidden="true" onClick={() => inputRef.current?.click()} data-testid={`${name}-button`}>
        <Icon name="image" /> {multiple ? t('file.choose_many') : t('file.choose')}
      </span>
      <span id={chosenId} className="file-chosen muted" data-testid={`${name}-chosen`}>
        {chosen}
      </span>
    </div>
  );
}
