import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CrashFallback } from './crash-fallback';

interface State {
  error: unknown;
  hasError: boolean;
}

/**
 * Last line of defence around the whole app (providers included). Route errors are caught
 * closer by the router's error component, which renders the same fallback.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Soundloft crashed', error, info.componentStack);
  }

  reset = () => this.setState({ error: null, hasError: false });

  override render() {
    if (this.state.hasError) return <CrashFallback error={this.state.error} onReset={this.reset} />;
    return this.props.children;
  }
}
