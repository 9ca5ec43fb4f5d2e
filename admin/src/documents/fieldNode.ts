import { Node, mergeAttributes } from '@tiptap/react';

/**
 * A placeholder in a template: an inline atom `<span data-field="CODE" data-kind="reserved|own">`
 * that the server replaces with the record's (or the printer's) value when a document is issued
 * (api/engine/document-html.ts reads the same markup). It is one character to the cursor: arrows
 * step over it, Backspace deletes it whole.
 */
export interface FieldAttrs {
  code: string;
  kind: 'reserved' | 'own';
  label: string;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    templateField: {
      /** puts a placeholder at the cursor */
      insertField: (attrs: FieldAttrs) => ReturnType;
    };
  }
}

export const TemplateField = Node.create({
  name: 'templateField',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return {
      code: { default: '', parseHTML: (el) => el.getAttribute('data-field') ?? '', renderHTML: (a) => ({ 'data-field': a.code }) },
      kind: {
        default: 'reserved',
        parseHTML: (el) => el.getAttribute('data-kind') ?? 'reserved',
        renderHTML: (a) => ({ 'data-kind': a.kind }),
      },
      label: {
        default: '',
        parseHTML: (el) => el.getAttribute('data-label') ?? el.textContent ?? '',
        renderHTML: (a) => ({ 'data-label': a.label }),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-field]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    return [
      'span',
      mergeAttributes(HTMLAttributes, { class: 'td-field', contenteditable: 'false' }),
      `{${node.attrs.label || node.attrs.code}}`,
    ];
  },
  // an opaque view of its own: the browser's editing around it never makes ProseMirror re-read (and duplicate) it
  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('span');
      dom.className = 'td-field';
      dom.contentEditable = 'false';
      dom.setAttribute('data-field', node.attrs.code);
      dom.setAttribute('data-kind', node.attrs.kind);
      dom.textContent = `{${node.attrs.label || node.attrs.code}}`;
      return { dom, ignoreMutation: () => true };
    };
  },
  renderText({ node }) {
    return `{${node.attrs.code}}`;
  },
  addCommands() {
    return {
      // the placeholder, then a no-break space after it: a plain one at the end of a line is collapsed by the browser before the next word is typed
      insertField:
        (attrs) =>
        ({ chain }) =>
          chain()
            .insertContent({ type: this.name, attrs })
            .command(({ tr }) => {
              tr.insertText('\u00a0');
              return true;
            })
            .run(),
    };
  },
});
