package dev.sopline.gateway.web;

import java.util.HashMap;
import java.util.Map;

/**
 * Which requests may wait at once (writes waiting for the engine, an agent's reads waiting for an instance to settle),
 * shared among workspaces so that it is both fair and not wasted.
 *
 * <ul>
 *   <li>No more than the limit wait at once.</li>
 *   <li>A workspace holding less than its share (half the limit) is let in while there is any room.</li>
 *   <li>A workspace holding its share or more is let in only while more than a quarter of the limit (the others'
 *       reserve) would stay free: one workspace alone may hold three quarters, and a workspace that begins writing
 *       while another floods finds the reserve free at once.</li>
 * </ul>
 *
 * <p>A flooding workspace cannot take back a slot it leaves while the reserve is not free, so as the others write the
 * room moves over to them until the flooding one is down to its share. Written by hand: a semaphore per workspace
 * (what this replaced) can only give each a fixed share, so one workspace alone could never use the others' idle room,
 * and bulkhead libraries (Resilience4j) have no per-tenant borrowing either.
 */
public final class WaitingRoom {

    private final int limit;
    private final int share;
    private final int reserve;
    private final Map<String, Integer> heldByWorkspace = new HashMap<>();
    private int held;

    /**
     * @param limit how many requests may wait at once, at least 1
     */
    public WaitingRoom(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("Expected a limit of at least 1, but got " + limit);
        }
        this.limit = limit;
        this.share = Math.max(1, limit / 2);
        this.reserve = (limit + 3) / 4;
    }

    /** Takes a place for one request of the workspace, or answers false when it must be turned away. */
    public synchronized boolean tryEnter(String workspace) {
        if (!hasRoomFor(workspace)) {
            return false;
        }
        held++;
        heldByWorkspace.merge(workspace, 1, Integer::sum);
        return true;
    }

    /**
     * Whether {@link #tryEnter} would let a request of the workspace in now, taking no place: a request that would be
     * turned away can be answered before any work is spent on it. The answer may be out of date by the time the request
     * tries to enter, either way; only {@link #tryEnter} holds a place.
     */
    public synchronized boolean hasRoomFor(String workspace) {
        int workspaceHeld = heldByWorkspace.getOrDefault(workspace, 0);
        return workspaceHeld < share ? held < limit : limit - held > reserve;
    }

    /** Gives back a place taken by {@link #tryEnter}. */
    public synchronized void leave(String workspace) {
        held--;
        // Workspaces with nothing waiting are forgotten, so the map holds only the ones writing now.
        heldByWorkspace.computeIfPresent(workspace, (ignored, count) -> count == 1 ? null : count - 1);
    }

    /** How many requests wait now. */
    public synchronized int held() {
        return held;
    }

    public int limit() {
        return limit;
    }
}
