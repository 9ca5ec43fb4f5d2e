/**
 * Rich text from the API (news, the site's texts). The server keeps it to an allow-list of tags
 * with no attributes but a safe link's `href` (api/engine/rich-html.ts) when it is stored and again
 * when it is served, so it is drawn as HTML; a text without tags (older rows) as paragraphs.
 */
export function RichText({ html, className, testId }: { html: string | null | undefined; className?: string; testId?: string }) {
  if (!html) return null;
  if (!/<[a-z][^>]*>/i.test(html)) {
    return (
      <div className={className} data-testid={testId}>
        {html.split(/\n{2,}/).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
    );
  }
  return (
    <div className={['rich-text', className].filter(Boolean).join(' ')} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
