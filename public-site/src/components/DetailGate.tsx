import type { ReactNode } from 'react';
import type { Loaded } from '../api';
import { EmptyState, ErrorState, Loading, PageTitle } from './ui';

type Icon = Parameters<typeof EmptyState>[0]['icon'];

/**
 * What a detail page (/news/:id, /tree/:id, a green area, a resident area) shows before its row:
 * "not found" with a way back when the id is not a number or the API answers 404, the error with a
 * retry, or a placeholder while loading. Null once the row is there.
 */
export function detailGate<T>(
  valid: boolean,
  item: Loaded<T>,
  o: {
    title: string;
    notFound: string;
    notFoundText?: string;
    icon: Icon;
    testId: string;
    back: ReactNode;
  },
): ReactNode | null {
  if (!valid || item.error?.status === 404) {
    return (
      <div className="container narrow">
        <PageTitle>{o.title}</PageTitle>
        <EmptyState title={o.notFound} text={o.notFoundText} icon={o.icon} testId={o.testId}>
          <p>{o.back}</p>
        </EmptyState>
      </div>
    );
  }
  if (item.error)
    return (
      <div className="container narrow">
        <PageTitle>{o.title}</PageTitle>
        <ErrorState error={item.error} retry={item.reload} />
      </div>
    );
  if (!item.data)
    return (
      <div className="container narrow">
        <Loading height={400} />
      </div>
    );
  return null;
}
