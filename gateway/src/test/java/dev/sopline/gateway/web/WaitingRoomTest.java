package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How requests waiting at once share a gateway's room among workspaces (at the limit of the writes waiting for the engine, 128). */
class WaitingRoomTest {

    private final WaitingRoom room = new WaitingRoom(128);

    @Test
    void shouldLetOneWorkspaceAloneHoldThreeQuartersOfTheRoom() {
        assertThat(enter("team-a", 200)).isEqualTo(96);
    }

    @Test
    void shouldKeepAQuarterFreeForAWorkspaceThatBeginsWritingWhileAnotherFloods() {
        enter("team-a", 200);

        assertThat(enter("team-b", 200)).as("the reserve, at once").isEqualTo(32);
        assertThat(room.tryEnter("team-c")).as("beyond the limit").isFalse();
    }

    @Test
    void shouldMoveTheRoomOverToTheOthersAsTheFloodingWorkspacesWritesAreAnsweredUntilItIsDownToItsShare() {
        enter("team-a", 200);
        enter("team-b", 200);
        int aHolds = 96;
        int bHolds = 32;
        for (int answered = 0; answered < 100; answered++) {
            room.leave("team-a");
            aHolds--;
            if (room.tryEnter("team-a")) {
                aHolds++;
            }
            if (room.tryEnter("team-b")) {
                bHolds++;
            }
        }

        assertThat(aHolds).as("the flooding workspace keeps its half").isEqualTo(64);
        assertThat(bHolds).isEqualTo(64);
    }

    @Test
    void shouldGiveThePlacesBackWhenTheWritesAreAnswered() {
        enter("team-a", 96);
        for (int i = 0; i < 96; i++) {
            room.leave("team-a");
        }

        assertThat(enter("team-b", 200)).isEqualTo(96);
        assertThat(enter("team-a", 200)).isEqualTo(32);
    }

    /**
     * Whatever the order of writes and answers: never more than the limit, a workspace under its half never waits for
     * room that is there, and a look ahead ({@link WaitingRoom#hasRoomFor}) foresees each answer without taking a place.
     */
    @Test
    void shouldNeverPassTheLimitNorTurnAwayAWorkspaceUnderItsHalfWhileThereIsRoom() {
        Random random = new Random(23);
        Map<String, Integer> holds = new HashMap<>();
        List<String> entered = new ArrayList<>();
        for (int step = 0; step < 200_000; step++) {
            if (!entered.isEmpty() && random.nextInt(100) < 48) {
                String workspace = entered.remove(random.nextInt(entered.size()));
                room.leave(workspace);
                holds.merge(workspace, -1, Integer::sum);
                continue;
            }
            String workspace = "team-" + random.nextInt(random.nextBoolean() ? 1 : 4);
            int held = entered.size();
            int workspaceHeld = holds.getOrDefault(workspace, 0);
            boolean foreseen = room.hasRoomFor(workspace);
            boolean let = room.tryEnter(workspace);
            assertThat(let).as("what the look ahead, which takes no place, foresaw").isEqualTo(foreseen);
            if (workspaceHeld < 64 && held < 128) {
                assertThat(let).as("under its half with room left").isTrue();
            }
            if (let) {
                entered.add(workspace);
                holds.merge(workspace, 1, Integer::sum);
            }
            assertThat(entered).hasSizeLessThanOrEqualTo(128);
            assertThat(holds.getOrDefault(workspace, 0)).isLessThanOrEqualTo(96);
        }
    }

    @Test
    void shouldRefuseALimitWithoutRoomForOneWrite() {
        assertThatThrownBy(() -> new WaitingRoom(0)).isInstanceOf(IllegalArgumentException.class);
        WaitingRoom one = new WaitingRoom(1);
        assertThat(one.tryEnter("team-a")).isTrue();
        assertThat(one.tryEnter("team-b")).isFalse();
    }

    private int enter(String workspace, int times) {
        int let = 0;
        for (int i = 0; i < times; i++) {
            if (room.tryEnter(workspace)) {
                let++;
            }
        }
        return let;
    }
}
