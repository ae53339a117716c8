"""ToolBusClient dispatches through ray.util.ActorPool's idle set: from many threads, a call goes
to a bus with nothing of this client in flight, never behind a slow call on a busy one."""

import threading
import time

import pytest


@pytest.fixture(scope="module")
def buses(ray_session):
    ray = ray_session

    @ray.remote(num_cpus=0, max_concurrency=8)
    class Bus:
        """Records which bus ran a call and how many of its calls overlapped."""

        def __init__(self, name):
            self.name, self.running, self.most = name, 0, 0

        def execute(self, run_id, intent, grant_id=None):
            self.running += 1
            self.most = max(self.most, self.running)
            time.sleep(intent["seconds"])
            self.running -= 1
            return {"bus": self.name, "run_id": run_id}

        def overlap(self):
            return self.most

    made = [Bus.remote(n) for n in ("a", "b")]
    yield made
    for b in made:
        ray.kill(b)


def test_a_call_goes_to_the_idle_bus_and_none_queues_behind_a_slow_one(ray_session, buses):
    from warrant.actors.review import ToolBusClient

    client = ToolBusClient(buses)
    slow_done = {}
    slow = threading.Thread(target=lambda: slow_done.update(client.execute("run_slow", {"seconds": 5.0})))
    slow.start()
    time.sleep(0.5)  # the slow call holds one bus
    fast = [client.execute(f"run_{i}", {"seconds": 0.0}) for i in range(6)]
    assert slow.is_alive()  # all six were answered while the slow call still ran ...
    slow.join()
    assert {r["bus"] for r in fast} == {"a", "b"} - {slow_done["bus"]}  # ... on the other bus
    # from this client, never two calls at once on one bus
    assert ray_session.get([b.overlap.remote() for b in buses]) == [1, 1]


def test_callers_wait_when_every_bus_is_busy_and_all_are_answered(ray_session, buses):
    from warrant.actors.review import ToolBusClient

    client = ToolBusClient(buses)
    out = []
    threads = [threading.Thread(target=lambda i=i: out.append(client.execute(f"run_{i}", {"seconds": 0.2}))) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(r["run_id"] for r in out) == [f"run_{i}" for i in range(6)]
    assert {r["bus"] for r in out} == {"a", "b"}
    assert ray_session.get([b.overlap.remote() for b in buses]) == [1, 1]
