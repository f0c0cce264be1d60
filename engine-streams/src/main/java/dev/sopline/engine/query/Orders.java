package dev.sopline.engine.query;

import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import java.util.Comparator;

/** The order of each list and the cursor of an entry in it; the same on every replica, so pages merge. */
public final class Orders {

    public static final Comparator<InstanceView> NEWEST_FIRST = Comparator.comparing(InstanceView::id).reversed();
    public static final Comparator<PendingStep> OLDEST_FIRST = Comparator.comparing(Orders::pendingCursor);

    private Orders() {}

    public static String instanceCursor(InstanceView view) {
        return view.id();
    }

    /** The pending entry's key in its store, without the workspace prefix. */
    public static String pendingCursor(PendingStep step) {
        return PendingStepStore.positionOf(step);
    }
}
